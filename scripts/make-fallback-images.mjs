// Draws the bundled fallback image of each page (shown when neither the chosen image nor the stock image can be
// fetched, e.g. offline). Run once; the outputs are committed under src/lib/server/images/fallback/.
import sharp from 'sharp';

const W = 1200;
const H = 675;
const out = 'src/lib/server/images/fallback';

function bricks() {
	let rows = '';
	for (let y = 0, r = 0; y < H; y += 45, r++) {
		for (let x = r % 2 ? -60 : 0; x < W; x += 120) {
			const shade = 150 + ((x * 7 + y * 13) % 40);
			rows += `<rect x="${x + 3}" y="${y + 3}" width="114" height="39" rx="3" fill="rgb(${shade + 40},${shade - 20},${shade - 60})"/>`;
		}
	}
	return `<rect width="${W}" height="${H}" fill="#8a6f5a"/>${rows}<rect width="${W}" height="${H}" fill="url(#shade)"/>`;
}

function garden() {
	let leaves = '';
	for (let i = 0; i < 140; i++) {
		const x = (i * 137) % W;
		const y = 300 + ((i * 89) % 380);
		const r = 20 + ((i * 31) % 60);
		const g = 110 + ((i * 17) % 90);
		leaves += `<circle cx="${x}" cy="${y}" r="${r}" fill="rgb(${40 + (i % 30)},${g},${50 + (i % 40)})" opacity="0.85"/>`;
	}
	return `<rect width="${W}" height="${H}" fill="url(#sky)"/>${leaves}<rect width="${W}" height="${H}" fill="url(#shade)"/>`;
}

function studio() {
	let grid = '';
	for (let x = 0; x < W; x += 60)
		grid += `<line x1="${x}" y1="0" x2="${x}" y2="${H}" stroke="#ffffff" stroke-opacity="0.06"/>`;
	for (let y = 0; y < H; y += 60)
		grid += `<line x1="0" y1="${y}" x2="${W}" y2="${y}" stroke="#ffffff" stroke-opacity="0.06"/>`;
	return `<rect width="${W}" height="${H}" fill="url(#night)"/>${grid}
		<rect x="330" y="170" width="540" height="330" rx="18" fill="#f6f1e7"/>
		<rect x="360" y="205" width="480" height="40" rx="6" fill="#e9a23b"/>
		<rect x="360" y="270" width="300" height="18" rx="4" fill="#1f2a37" opacity="0.5"/>
		<rect x="360" y="305" width="420" height="14" rx="4" fill="#1f2a37" opacity="0.25"/>
		<rect x="360" y="335" width="380" height="14" rx="4" fill="#1f2a37" opacity="0.25"/>
		<rect x="360" y="400" width="160" height="50" rx="8" fill="#8a4804"/>`;
}

const defs = `<defs>
	<linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.35"/></linearGradient>
	<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#cfe6f2"/><stop offset="0.6" stop-color="#e8f1de"/></linearGradient>
	<linearGradient id="night" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1f2a37"/><stop offset="1" stop-color="#3b4a5c"/></linearGradient>
</defs>`;

for (const [name, body] of [
	['home', studio()],
	['macon', bricks()],
	['paysagiste', garden()]
]) {
	const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${defs}${body}</svg>`;
	const info = await sharp(Buffer.from(svg)).webp({ quality: 70 }).toFile(`${out}/${name}.webp`);
	console.log(name, info.size, 'bytes');
}
