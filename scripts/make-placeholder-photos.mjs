/**
 * Makes the neutral placeholder photos of showcase mode (src/content/showcase/photos/): drawn masonry textures —
 * stone courses, brick bond, render, paving, blocks — in muted tones, one per photo the content names. They are
 * ours to ship; a business replaces each file by its own photo under the same name (README, "Showcase mode").
 * Run once: `node scripts/make-placeholder-photos.mjs`; the output is committed and Vite's enhanced-img turns it
 * into responsive AVIF/WebP at build time.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const OUT = path.resolve(import.meta.dirname, '../src/content/showcase/photos');
const W = 1600;
const H = 1067;

/** A small deterministic random generator, so that the files do not change from one run to the next. */
function random(seed) {
	let s = seed >>> 0;
	return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const palettes = {
	stone: ['#b9ab93', '#a89a82', '#c7bba5', '#9d8f78', '#d2c7b3'],
	brick: ['#a4654b', '#b47558', '#96583f', '#c08468', '#8a5039'],
	render: ['#e2d9c8', '#d9cfbc', '#e9e2d4'],
	paving: ['#a9a59c', '#b8b4aa', '#9a968d', '#c5c1b8'],
	block: ['#a7a7a2', '#b3b3ad', '#9c9c97'],
	earth: ['#b99a74', '#a88a66', '#c4a780', '#9e8060']
};

function courses(rand, colours, { rowH, minW, maxW, joint, jointColour, irregular }) {
	let shapes = '';
	for (let y = 0, row = 0; y < H; y += rowH, row++) {
		const h = irregular ? rowH * (0.7 + rand() * 0.5) : rowH;
		let x = irregular ? -rand() * maxW : row % 2 ? -maxW / 2 : 0;
		while (x < W) {
			const w = minW + rand() * (maxW - minW);
			const c = colours[Math.floor(rand() * colours.length)];
			const r = irregular ? 6 + rand() * 10 : 2;
			shapes += `<rect x="${x + joint}" y="${y + joint}" width="${w - joint * 2}" height="${h - joint * 2}" rx="${r}" fill="${c}"/>`;
			x += w;
		}
	}
	return `<rect width="${W}" height="${H}" fill="${jointColour}"/>${shapes}`;
}

function render(rand, colours) {
	let blots = '';
	for (let i = 0; i < 220; i++) {
		const c = colours[Math.floor(rand() * colours.length)];
		blots += `<circle cx="${rand() * W}" cy="${rand() * H}" r="${30 + rand() * 120}" fill="${c}" opacity="0.35"/>`;
	}
	return `<rect width="${W}" height="${H}" fill="${colours[0]}"/>${blots}`;
}

function earth(rand, colours) {
	let layers = '';
	for (let y = 0; y < H; y += 18 + rand() * 30) {
		const c = colours[Math.floor(rand() * colours.length)];
		layers += `<rect x="0" y="${y}" width="${W}" height="${24 + rand() * 30}" fill="${c}" opacity="0.8"/>`;
	}
	return `<rect width="${W}" height="${H}" fill="${colours[0]}"/>${layers}`;
}

const PHOTOS = {
	'accueil-chantier': [
		'stone',
		11,
		(r, c) =>
			courses(r, c, { rowH: 90, minW: 110, maxW: 260, joint: 7, jointColour: '#ddd3bf', irregular: true })
	],
	'mur-pierre': [
		'stone',
		12,
		(r, c) =>
			courses(r, c, { rowH: 120, minW: 140, maxW: 320, joint: 8, jointColour: '#d8cdb8', irregular: true })
	],
	'muret-cloture': [
		'stone',
		13,
		(r, c) =>
			courses(r, c, { rowH: 70, minW: 90, maxW: 200, joint: 6, jointColour: '#e0d6c3', irregular: true })
	],
	'facade-enduit': ['render', 14, render],
	'terrasse-dalles': [
		'paving',
		15,
		(r, c) =>
			courses(r, c, { rowH: 260, minW: 260, maxW: 400, joint: 5, jointColour: '#6f6c66', irregular: false })
	],
	'pise-renovation': ['earth', 16, earth],
	'ouverture-baie': [
		'brick',
		17,
		(r, c) =>
			courses(r, c, { rowH: 64, minW: 200, maxW: 200, joint: 5, jointColour: '#d9d0c1', irregular: false })
	],
	'extension-maison': [
		'block',
		18,
		(r, c) =>
			courses(r, c, { rowH: 200, minW: 500, maxW: 500, joint: 6, jointColour: '#d2d2cc', irregular: false })
	],
	'mur-soutenement': [
		'stone',
		19,
		(r, c) =>
			courses(r, c, { rowH: 150, minW: 160, maxW: 380, joint: 9, jointColour: '#cfc4ae', irregular: true })
	],
	'escalier-exterieur': [
		'paving',
		20,
		(r, c) =>
			courses(r, c, {
				rowH: 130,
				minW: 1600,
				maxW: 1600,
				joint: 10,
				jointColour: '#5f5c57',
				irregular: false
			})
	],
	'fondations-dalle': ['block', 21, render],
	rejointoiement: [
		'stone',
		22,
		(r, c) =>
			courses(r, c, { rowH: 80, minW: 120, maxW: 240, joint: 10, jointColour: '#efe6d4', irregular: true })
	],
	'equipe-atelier': [
		'brick',
		23,
		(r, c) =>
			courses(r, c, { rowH: 80, minW: 240, maxW: 240, joint: 6, jointColour: '#cfc6b6', irregular: false })
	],
	'reprise-fissure': ['render', 24, render]
};

mkdirSync(OUT, { recursive: true });
for (const [name, [palette, seed, draw]] of Object.entries(PHOTOS)) {
	const rand = random(seed);
	// A soft light from the top left, so that the textures read as photographs of a surface, not as flat art.
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
		<defs><radialGradient id="light" cx="0.25" cy="0.2" r="1.1">
			<stop offset="0" stop-color="#fff" stop-opacity="0.28"/><stop offset="1" stop-color="#000" stop-opacity="0.3"/>
		</radialGradient></defs>
		${draw(rand, palettes[palette])}
		<rect width="${W}" height="${H}" fill="url(#light)"/>
	</svg>`;
	await sharp(Buffer.from(svg))
		.blur(1.2)
		.jpeg({ quality: 78, mozjpeg: true })
		.toFile(path.join(OUT, `${name}.jpg`));
	console.log(`${name}.jpg`);
}
