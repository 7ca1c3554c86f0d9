// `npm run lighthouse [-- showcase|platform]`: Lighthouse 12 (mobile: its default emulation and throttling) on
// the built server, with the system Chromium, in one site mode; prints one line per page with the four category
// scores and exits non-zero when one is under 95. Not part of `npm test`: a few minutes, and timing-sensitive.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../bench/lib.mjs';

const PAGES = {
	showcase: [
		'/',
		'/services/facades-et-enduits',
		'/secteurs/cremieu',
		'/blog/mur-de-soutenement-regles',
		'/realisations',
		'/contact'
	],
	platform: [
		'/',
		'/macon',
		'/paysagiste',
		'/contact',
		'/devis',
		'/mentions-legales',
		'/cgv',
		'/confidentialite',
		'/login',
		'/register'
	]
};
const TARGET = 95;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const mode = process.argv[2] ?? 'showcase';
if (!PAGES[mode]) {
	console.error(`usage: npm run lighthouse -- [${Object.keys(PAGES).join('|')}]`);
	process.exit(2);
}
if (!existsSync('build/server.js')) {
	const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
	if (built.status !== 0) process.exit(built.status ?? 1);
}

const server = await startServer({ SITE_MODE: mode });
const out = mkdtempSync(path.join(tmpdir(), 'atelier-lighthouse-'));
let failed = false;
try {
	console.log(`Lighthouse mobile, SITE_MODE=${mode}`);
	console.log('page | performance | accessibility | best practices | SEO');
	for (const page of PAGES[mode]) {
		// Warm the page cache first: a visitor meets the cached page, not the first render after a deploy.
		await fetch(server.url + page);
		const report = path.join(out, `${page.replaceAll('/', '_') || 'home'}.json`);
		const run = spawnSync(
			process.execPath,
			[
				'node_modules/lighthouse/cli/index.js',
				server.url + page,
				'--quiet',
				'--output=json',
				`--output-path=${report}`,
				'--only-categories=performance,accessibility,best-practices,seo',
				'--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking'
			],
			{ env: { ...process.env, CHROME_PATH: CHROME }, encoding: 'utf8', timeout: 180_000 }
		);
		if (run.status !== 0) {
			console.error(run.stderr);
			failed = true;
			continue;
		}
		const { categories, audits } = JSON.parse(readFileSync(report, 'utf8'));
		const scores = ['performance', 'accessibility', 'best-practices', 'seo'].map((c) =>
			Math.round(categories[c].score * 100)
		);
		if (scores.some((s) => s < TARGET)) {
			failed = true;
			const failing = Object.values(audits)
				.filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
				.map((a) => `${a.id} (${a.displayValue ?? a.score})`);
			console.log(`${page} | ${scores.join(' | ')} | below ${TARGET}: ${failing.join(', ')}`);
		} else console.log(`${page} | ${scores.join(' | ')}`);
	}
} finally {
	await server.stop();
}
process.exit(failed ? 1 : 0);
