// Makes the icon set and the default Open Graph card of each site mode from their SVG favicon, into static/:
// favicon.ico (32 px PNG inside an ICO, for the browsers and tools that ask for it), apple-touch-icon.png
// (180 px, on a solid background as iOS wants), icon-192/512 for the web manifest, and og-*.png (1200×630)
// for pages that have no photo of their own. Run by hand after changing a favicon: `node scripts/make-icons.mjs`.
// The outputs are committed; nothing here runs at build time.
import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';

const MODES = [
	{
		suffix: '',
		svg: 'static/favicon.svg',
		background: '#1f2a37',
		accent: '#e9a23b',
		title: 'Atelier',
		subtitle: 'Sites web et formation pour les artisans'
	},
	{
		suffix: '-vitrine',
		svg: 'static/favicon-vitrine.svg',
		background: '#8a4804',
		accent: '#fbeedd',
		title: 'Maçonnerie Delorme',
		subtitle: 'Maçonnerie générale et rénovation de pierre'
	}
];

const png = (svg, size) => sharp(svg, { density: 600 }).resize(size, size).png().toBuffer();

/** An ICO file holding one PNG image (Vista and later read PNG entries). */
function ico(image, size) {
	const header = Buffer.alloc(22);
	header.writeUInt16LE(0, 0); // reserved
	header.writeUInt16LE(1, 2); // type: icon
	header.writeUInt16LE(1, 4); // one image
	header.writeUInt8(size, 6);
	header.writeUInt8(size, 7);
	header.writeUInt16LE(1, 10); // colour planes
	header.writeUInt16LE(32, 12); // bits per pixel
	header.writeUInt32LE(image.length, 14);
	header.writeUInt32LE(22, 18); // offset of the image
	return Buffer.concat([header, image]);
}

const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

for (const mode of MODES) {
	const svg = readFileSync(mode.svg);
	writeFileSync(`static/favicon${mode.suffix}.ico`, ico(await png(svg, 32), 32));
	for (const size of [192, 512]) writeFileSync(`static/icon${mode.suffix}-${size}.png`, await png(svg, size));
	// iOS draws the touch icon on black where it is transparent, and rounds the corners itself.
	writeFileSync(
		`static/apple-touch-icon${mode.suffix}.png`,
		await sharp({ create: { width: 180, height: 180, channels: 4, background: mode.background } })
			.composite([{ input: await png(svg, 150), gravity: 'centre' }])
			.png()
			.toBuffer()
	);
	const card = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">
		<rect width="1200" height="630" fill="${mode.background}"/>
		<rect x="80" y="460" width="240" height="10" fill="${mode.accent}"/>
		<text x="80" y="300" font-family="DejaVu Serif, Georgia, serif" font-size="92" font-weight="700" fill="#ffffff">${escape(mode.title)}</text>
		<text x="80" y="390" font-family="DejaVu Sans, Arial, sans-serif" font-size="44" fill="${mode.accent}">${escape(mode.subtitle)}</text>
	</svg>`;
	writeFileSync(
		`static/og${mode.suffix || '-atelier'}.png`,
		await sharp(Buffer.from(card))
			.composite([{ input: await png(svg, 140), top: 80, left: 980 }])
			.png({ compressionLevel: 9 })
			.toBuffer()
	);
}
console.log('icons and Open Graph cards written to static/');
