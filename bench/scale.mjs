// Part "scale" of `npm run bench` (issue « Years of use »): a site after years of use (bench/scale-seed.ts: 200,000
// leads, 300,000 e-mails, 5,000 members, 100,000 audit rows, a year of audience, 300 articles), seeded on PostgreSQL
// and in the embedded database; on each, every admin page and public list's p50/p90 (after warming: cold caches
// excepted, as the issue says), each CSV export's first byte, whole time and the server's growth while it goes out,
// and the server's memory after all of it; then `npm run backup` against `pg_dump -Fc` of the same database, and the
// restore of that backup into the embedded default. Goals: p50 <= 150 ms (PostgreSQL), <= 300 ms (embedded); the
// dashboard's 12 months <= 2x its 30 days; exports' first byte <= 1 s and growth <= 20 MB; the server <= 300 MB;
// backup <= 2x pg_dump; restore into the embedded default <= 5 min and 300 MB.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from '../scripts/bundle-options.mjs';
import { measure } from './backup.mjs';
import { fmt, rssOf, settled, signedInAdmin, startServer, withBenchDatabase } from './lib.mjs';

const ADMIN = { name: 'Bench', email: 'bench@exemple.fr', password: 'une phrase de passe solide' };
const MB = 1024 * 1024;
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES || 15);

const PAGES = [
	['/admin?periode=30j', 'admin'],
	['/admin?periode=12m', 'admin'],
	['/admin/demandes', 'admin'],
	['/admin/demandes?onglet=traitees', 'admin'],
	['/admin/utilisateurs', 'admin'],
	['/admin/suivi', 'admin'],
	['/admin/suivi?q=membre42', 'admin'],
	['/admin/activite', 'admin'],
	['/admin/emails', 'admin'],
	['/admin/pages', 'admin'],
	['/admin/candidatures', 'admin'],
	['/admin/questions', 'admin'],
	['/admin/satisfaction', 'admin'],
	['/blog', 'public'],
	['/blog?page=25', 'public'],
	['/blog/rss.xml', 'public'],
	['/sitemap.xml', 'public']
];
const EXPORTS = [
	// Every lead, spam and handled ones too: the longest export there is.
	'/admin/demandes/export.csv?onglet=toutes',
	'/admin/suivi.csv',
	'/admin/statistiques.csv',
	'/admin/satisfaction.csv'
];

const percentile = (xs, p) =>
	[...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** One page's p50/p90 over SAMPLES requests after 3 warm-up ones; the far inbox page is found by its links. */
async function timePage(server, cookie, page) {
	const times = [];
	let bytes = 0;
	for (let i = 0; i < SAMPLES + 3; i++) {
		const started = performance.now();
		const response = await fetch(server.url + page, { headers: { cookie } });
		const body = await response.text();
		if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
		if (i >= 3) times.push(performance.now() - started);
		bytes = body.length;
	}
	return { p50: percentile(times, 0.5), p90: percentile(times, 0.9), bytes };
}

/**
 * The inbox's oldest page, as its pagination reaches it: its « last page » link when it numbers pages (OFFSET), or the
 * link the page names `data-oldest` when it walks by keys.
 */
async function farInboxPage(server, cookie) {
	const html = await (
		await fetch(`${server.url}/admin/demandes?onglet=toutes`, { headers: { cookie } })
	).text();
	const oldest = /<a[^>]*href="([^"]*)"[^>]*data-oldest/.exec(html)?.[1]?.replaceAll('&amp;', '&');
	return oldest
		? `/admin/demandes${oldest.replace(/^[^?]*/, '')}`
		: '/admin/demandes?onglet=toutes&page=100000';
}

/** An export downloaded to its end: first byte, whole time, rows, and the server's largest growth meanwhile. */
async function timeExport(server, cookie, target) {
	const before = rssOf(server.child.pid);
	let peak = before;
	const timer = setInterval(() => (peak = Math.max(peak, rssOf(server.child.pid))), 20);
	const started = performance.now();
	try {
		const response = await fetch(server.url + target, { headers: { cookie } });
		if (response.status !== 200) throw new Error(`${target} answered ${response.status}`);
		let firstByte = null;
		let lines = 0;
		for await (const chunk of response.body) {
			firstByte ??= performance.now() - started;
			for (const byte of chunk) if (byte === 10) lines++;
		}
		return { firstByte, total: performance.now() - started, lines, growth: peak - before };
	} finally {
		clearInterval(timer);
	}
}

async function benchSite(label, seed, target, env, goalMs) {
	const seeded = JSON.parse(
		execFileSync(process.execPath, [seed, target], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
			.trim()
			.split('\n')
			.at(-1)
	);
	console.log(
		`scale.${label}.seeded ${seeded.seconds} s (${seeded.leads} leads, ${seeded.emails} e-mails, ${seeded.users} members, ${seeded.audit_events} audit rows, ${seeded.audience_daily} audience rows, ${seeded.content_entries} articles)`
	);
	const server = await startServer(env);
	try {
		const cookie = await signedInAdmin(server, ADMIN);
		await settled(server.child.pid);
		const far = await farInboxPage(server, cookie);
		const pages = far ? [...PAGES.slice(0, 4), [far, 'admin'], ...PAGES.slice(4)] : PAGES;
		const figures = {};
		for (const [page] of pages) {
			const { p50, p90, bytes } = await timePage(server, cookie, page);
			figures[page] = p50;
			const verdict = p50 <= goalMs ? 'ok' : 'OVER';
			console.log(
				`scale.${label}.page ${page} p50 ${fmt(p50, 0)} ms p90 ${fmt(p90, 0)} ms (${fmt(bytes / 1024, 0)} KB; goal <= ${goalMs} ms: ${verdict})`
			);
		}
		const ratio = figures['/admin?periode=12m'] / figures['/admin?periode=30j'];
		console.log(`scale.${label}.dashboard_12m_over_30d ${fmt(ratio, 2)} (goal <= 2)`);
		for (const target of EXPORTS) {
			const { firstByte, total, lines, growth } = await timeExport(server, cookie, target);
			console.log(
				`scale.${label}.export ${target} first byte ${fmt(firstByte, 0)} ms, ${lines} lines in ${fmt(total / 1000, 1)} s, server +${fmt(growth / MB, 0)} MB (goals: first byte <= 1000 ms, growth <= 20 MB)`
			);
		}
		console.log(
			`scale.${label}.server_rss ${fmt(rssOf(server.child.pid) / MB, 0)} MB after every page and export (goal <= 300 MB)`
		);
	} finally {
		await server.stop();
	}
}

/**
 * `npm run backup` of the seeded PostgreSQL database against `pg_dump -Fc`, three times each, one after the other, on
 * a database vacuumed first (as autovacuum leaves a site's tables; right after the seed and the pages, autovacuum
 * working beside one run moved the ratio by a quarter); then its restore into the embedded default.
 */
async function benchBackup(url, work) {
	execFileSync('psql', [url, '-qc', 'vacuum (analyze)']);
	const dump = path.join(work, 'baseline.dump');
	const archive = path.join(work, 'scale.tar.gz.age');
	// The seeded database is the installation; the folder holds the bucket and the backup's key, as a server's would.
	const env = {
		DATABASE_URL: url,
		DATA_DIR: path.join(work, 'pg-data'),
		STORAGE_DRIVER: 'fs',
		SIGNING_SECRET: 'bench-scale-signing-secret-0123456789abcdef'
	};
	mkdirSync(env.DATA_DIR, { recursive: true });
	const s = (x) => `${x.toFixed(1)} s`;
	const ratios = [];
	for (let round = 1; round <= 3; round++) {
		const baseline = await measure('pg_dump', ['-Fc', '-f', dump, url]);
		rmSync(archive, { force: true });
		const backup = await measure(process.execPath, ['build/backup.js', archive], env);
		ratios.push(backup.seconds / baseline.seconds);
		console.log(
			`scale.backup.${round} npm run backup ${s(backup.seconds)} (${fmt(statSync(archive).size / MB, 0)} MB, peak ${fmt(backup.peak / MB, 0)} MB) against pg_dump -Fc ${s(baseline.seconds)} (${fmt(statSync(dump).size / MB, 0)} MB): ${fmt(backup.seconds / baseline.seconds, 2)}x`
		);
	}
	console.log(
		`scale.backup ${fmt(percentile(ratios, 0.5), 2)}x pg_dump -Fc, the median of three (${ratios.map((r) => fmt(r, 2)).join(', ')}; goal <= 2x, peak <= 300 MB)`
	);
	const key = path.join(env.DATA_DIR, 'backup-key.txt');
	const restore = await measure(process.execPath, ['build/restore.js', archive, '--identity', key], {
		DATABASE_URL: '',
		STORAGE_DRIVER: 'fs',
		SIGNING_SECRET: '',
		DATA_DIR: path.join(work, 'restored')
	});
	console.log(
		`scale.restore into the embedded default ${s(restore.seconds)}, peak ${fmt(restore.peak / MB, 0)} MB (goal <= 300 s, <= 300 MB)`
	);
	const verify = await measure(
		process.execPath,
		['build/backup.js', '--verify', archive, '--identity', key],
		{
			DATABASE_URL: '',
			STORAGE_DRIVER: 'fs',
			SIGNING_SECRET: '',
			DATA_DIR: path.join(work, 'verifying')
		}
	);
	console.log(
		`scale.verify ${s(verify.seconds)}, peak ${fmt(verify.peak / MB, 0)} MB (goal <= 300 s, <= 300 MB)`
	);
	return path.join(work, 'restored');
}

export async function benchScale() {
	const seed = path.resolve('.cache/bench/scale-seed.js');
	await build({ ...bundleOptions, entryPoints: ['bench/scale-seed-main.ts'], outfile: seed });
	const work = mkdtempSync(path.join(tmpdir(), 'atelier-bench-scale-'));
	try {
		await withBenchDatabase('scale', async (url) => {
			await benchSite('postgres', seed, url, { DATABASE_URL: url }, 150);
			if (!process.env.BENCH_SCALE_SKIP_BACKUP) await benchBackup(url, work);
		});
		const dataDir = path.join(work, 'embedded');
		await benchSite('embedded', seed, dataDir, { DATA_DIR: dataDir }, 300);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
