// Part "insights" of `npm run bench` (issue "Insights", point 4):
// - counting's cost: the cached home page, asked by a browser (a User-Agent that counts), with ANALYTICS on against
//   the same server with ANALYTICS off, in pairs of rounds in the same run (goal >= 0.95);
// - the dashboard over two years of daily rows for 200 pages and 100 sources (seeded): its answer time per period,
//   signed in as an admin (goal < 100 ms).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from '../scripts/bundle-options.mjs';
import {
	BROWSER_HEADERS,
	ROUND_REQUESTS,
	fmt,
	load,
	pairedRatio,
	signedInAdmin,
	startServer
} from './lib.mjs';

const BROWSER = {
	...BROWSER_HEADERS,
	'user-agent':
		'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
};
const ADMIN = { name: 'Bench', email: 'bench@exemple.fr', password: 'une phrase de passe solide' };

async function countingCost() {
	const on = await startServer({ ANALYTICS: 'on' });
	const off = await startServer({ ANALYTICS: 'off' });
	let onStopped = false;
	try {
		for (const server of [on, off]) {
			await fetch(`${server.url}/`);
			await load(server.url, '/', { headers: BROWSER, total: ROUND_REQUESTS });
		}
		const measure = (url) => load(url, '/', { headers: BROWSER, total: ROUND_REQUESTS });
		const { ratio, firstRounds } = await pairedRatio(measure, on.url, off.url, 7);
		const rps = firstRounds.map((r) => r.rps).sort((a, b) => a - b)[3];
		// Proof that they were counted: the server writes its last counts as it stops; `npm run stats` reads them.
		await on.stop();
		onStopped = true;
		const stats = execFileSync(process.execPath, ['build/stats.js'], {
			env: { ...process.env, DATABASE_URL: '', DATA_DIR: on.dataDir },
			encoding: 'utf8'
		});
		const counted = Number(/^total\s+(\d+)/m.exec(stats)?.[1] ?? 0);
		if (counted < 7 * ROUND_REQUESTS) throw new Error(`only ${counted} page views were counted`);
		console.log(
			`insights.counting_ratio ${fmt(ratio, 3)} (cached / with ANALYTICS on, every request a browser's, against the same server with it off; ${fmt(rps, 0)} req/s, ${counted} views counted; median of 7 paired rounds of ${ROUND_REQUESTS}; goal >= 0.95)`
		);
	} finally {
		if (!onStopped) await on.stop();
		await off.stop();
	}
}

async function dashboardTime() {
	const seed = path.resolve('.cache/bench/insights-seed.js');
	await build({ ...bundleOptions, entryPoints: ['bench/insights-seed.ts'], outfile: seed });
	const work = mkdtempSync(path.join(tmpdir(), 'atelier-bench-insights-'));
	try {
		// The seed's last line is its figure (the database's log lines come before it).
		const seeded = JSON.parse(
			execFileSync(process.execPath, [seed, work], { encoding: 'utf8' }).trim().split('\n').at(-1)
		);
		const server = await startServer({ DATA_DIR: work });
		try {
			const cookie = await signedInAdmin(server, ADMIN);
			// Each period unfiltered (the rollups), then the year narrowed by each kind of filter (audience_daily
			// through its indexes): a page, a source, a campaign (a fifth of the seeded rows carry one), a device
			// (two thirds of the rows are a phone's: the widest a filter gets).
			const views = [
				['30j', ''],
				['90j', ''],
				['12m', ''],
				['12m_page', '&page=/page-7'],
				['12m_source', '&source=site-3.fr'],
				['12m_campaign', '&campagne=printemps'],
				['12m_device', '&appareil=mobile']
			];
			for (const [name, filter] of views) {
				const period = name.slice(0, 3);
				const times = [];
				for (let i = 0; i < 25; i++) {
					const start = performance.now();
					const response = await fetch(`${server.url}/admin?periode=${period}${filter}`, {
						headers: { cookie }
					});
					const page = await response.text();
					if (response.status !== 200) throw new Error(`/admin answered ${response.status}`);
					if (filter && !page.includes('Filtré sur')) throw new Error(`${name}: the page is not filtered`);
					if (i >= 5) times.push(performance.now() - start);
				}
				times.sort((a, b) => a - b);
				console.log(
					`insights.dashboard_${name}_ms ${fmt(times[Math.floor(times.length / 2)], 1)} (p50 of 20 after 5 warm-up; p90 ${fmt(times[Math.floor(times.length * 0.9)], 1)} ms; the whole /admin page${filter ? ` with ${filter.slice(1)}` : ''}, signed in, over ${seeded.rows} daily rows: 2 years, 200 pages, 100 sources; embedded database; goal < 100 ms)`
				);
			}
		} finally {
			await server.stop();
		}
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

export async function benchInsights() {
	await countingCost();
	await dashboardTime();
}
