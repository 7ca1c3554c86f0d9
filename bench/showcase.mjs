// Part "showcase" of `npm run bench` (issue "Showcase mode", point 7): in SITE_MODE=showcase, each page type
// served from the page cache against a bare node:http server sending the same bytes with the same headers, both
// in their own process, under the same load generator, alternating rounds. Target: >= 0.9 on every page.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fmt, load, median, startBareServer, startServer } from './lib.mjs';

const PAGES = {
	home: '/',
	service: '/services/facades-et-enduits',
	area: '/secteurs/cremieu',
	article: '/blog/mur-de-soutenement-regles',
	realisations: '/realisations'
};

export async function benchShowcase() {
	const server = await startServer({ SITE_MODE: 'showcase' });
	const ratios = [];
	try {
		for (const [name, target] of Object.entries(PAGES)) {
			await fetch(server.url + target);
			const sample = await fetch(server.url + target);
			if (sample.headers.get('x-page-cache') !== 'HIT')
				throw new Error(`${target} is not served from the cache`);
			const bytes = Buffer.from(await sample.arrayBuffer());
			const headers = Object.fromEntries(
				[...sample.headers].filter(
					([header]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(header)
				)
			);
			const file = path.join(server.dataDir, `${name}.html`);
			writeFileSync(file, bytes);
			const bare = await startBareServer(file, headers);
			try {
				await load(bare.url, target, { total: 800 });
				await load(server.url, target, { total: 800 });
				const bareRounds = [];
				const cachedRounds = [];
				for (let round = 0; round < 3; round++) {
					bareRounds.push(await load(bare.url, target, { total: 3000 }));
					cachedRounds.push(await load(server.url, target, { total: 3000 }));
				}
				const bareRps = median(bareRounds.map((r) => r.rps));
				const cachedRps = median(cachedRounds.map((r) => r.rps));
				ratios.push(cachedRps / bareRps);
				console.log(
					`showcase.${name}_ratio ${fmt(cachedRps / bareRps)} (${target}: cached ${fmt(cachedRps, 0)} req/s vs bare node:http with the same ${(bytes.length / 1024).toFixed(0)} KB ${fmt(bareRps, 0)} req/s, 16 clients; target >= 0.9)`
				);
			} finally {
				await bare.stop();
			}
		}
		console.log(`showcase.min_ratio ${fmt(Math.min(...ratios))} (the slowest page type; target >= 0.9)`);
	} finally {
		await server.stop();
	}
}
