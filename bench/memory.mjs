// Part "memory": resident memory of the production server on the embedded database (PGlite), against the same
// server on a PostgreSQL server when one answers at 127.0.0.1:5432. Measured after start-up settles, after a round
// of page requests, on a first start (the database is created) and on a restart (it exists), and after 60 s of
// mixed traffic (BENCH_MIXED_SECONDS): pages, images at several widths, lead submissions, failed sign-ins.
import { execFileSync } from 'node:child_process';
import { peakRssOf, rssOf, startServer } from './lib.mjs';

const MB = 1024 * 1024;
const PAGES = ['/', '/macon', '/paysagiste', '/contact', '/devis', '/login'];
const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 60);

/** The photos of the pages, at the widths a screen asks for (the image proxy's variants). */
export const PHOTO_VIEWS = [
	(url) => fetch(`${url}/api/img/hero?w=${[480, 800, 1200][Math.floor(Math.random() * 3)]}`),
	(url) => fetch(`${url}/api/img/about`)
];

/** What a small site's visitors do at once: read pages and photos, write to it, mistype a password. */
export const MIXED = [
	(url) => fetch(`${url}${PAGES[Math.floor(Math.random() * PAGES.length)]}`),
	...PHOTO_VIEWS,
	(url) =>
		fetch(`${url}/api/contact`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-forwarded-for': `10.1.${Math.floor(Math.random() * 250)}.1`
			},
			body: JSON.stringify({
				name: 'Banc',
				email: 'banc@exemple.fr',
				message: 'Une demande pour mesurer la mémoire.'
			})
		}),
	(url) =>
		fetch(`${url}/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, accept: 'text/html' },
			body: new URLSearchParams({ email: 'personne@exemple.fr', password: 'pas le bon mot de passe' }),
			redirect: 'manual'
		})
];

/**
 * `seconds` of requests from `concurrency` clients, each drawn from `kinds` (MIXED: the README's mixed traffic;
 * BENCH_MIXED_ONLY=<index> keeps one kind of it). tests/e2e/foundation/memory.e2e.ts sends the same.
 */
export async function mixedTraffic(url, seconds, concurrency = 8, kinds = MIXED) {
	const end = Date.now() + seconds * 1000;
	let requests = 0;
	if (process.env.BENCH_MIXED_ONLY) kinds = [MIXED[Number(process.env.BENCH_MIXED_ONLY)]];
	const worker = async () => {
		while (Date.now() < end) {
			const response = await kinds[Math.floor(Math.random() * kinds.length)](url);
			await response.arrayBuffer();
			requests++;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return requests;
}

async function idleRss(env, { mixed = false } = {}) {
	const server = await startServer(env);
	await settle(2_000);
	const started = rssOf(server.child.pid);
	for (let round = 0; round < 3; round++)
		for (const page of PAGES) await (await fetch(`${server.url}${page}`)).arrayBuffer();
	await settle(3_000);
	const afterPages = rssOf(server.child.pid);
	let afterMixed = null;
	let requests = 0;
	if (mixed) {
		requests = await mixedTraffic(server.url, MIXED_SECONDS);
		await settle(2_000);
		afterMixed = rssOf(server.child.pid);
	}
	const peak = peakRssOf(server.child.pid);
	await server.stop();
	return { started, afterPages, afterMixed, peak, requests, dataDir: server.dataDir };
}

function postgresDatabase() {
	const name = `atelier_bench_${process.pid}`;
	try {
		execFileSync(
			'psql',
			['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-qc', `create database ${name}`],
			{
				stdio: 'ignore'
			}
		);
	} catch {
		return null;
	}
	return {
		url: `postgres://postgres@127.0.0.1:5432/${name}`,
		drop: () =>
			execFileSync(
				'psql',
				[
					'-h',
					'127.0.0.1',
					'-U',
					'postgres',
					'-d',
					'postgres',
					'-qc',
					`drop database if exists ${name} with (force)`
				],
				{
					stdio: 'ignore'
				}
			)
	};
}

export async function benchMemory() {
	const first = await idleRss({ DATABASE_URL: '' }, { mixed: true });
	const restart = await idleRss({ DATABASE_URL: '', DATA_DIR: first.dataDir });
	const mb = (bytes) => (bytes / MB).toFixed(0);
	console.log(
		`memory: PGlite first start, idle RSS ${mb(first.started)} MB (goal ≤ 300 MB), after pages ${mb(first.afterPages)} MB`
	);
	console.log(
		`memory: PGlite after ${MIXED_SECONDS} s of mixed traffic (${first.requests} requests) ${mb(first.afterMixed)} MB (goal ≤ 300 MB); ` +
			`peak ${mb(first.peak)} MB since its start (VmHWM, /usr/bin/time -v's maximum; goal ≤ 300 MB)`
	);
	console.log(
		`memory: PGlite restart, idle RSS ${mb(restart.started)} MB, after pages ${mb(restart.afterPages)} MB`
	);
	const database = postgresDatabase();
	if (!database) {
		console.log('memory: PostgreSQL not reachable at 127.0.0.1:5432, no baseline');
		return;
	}
	try {
		const server = await idleRss({ DATABASE_URL: database.url }, { mixed: true });
		console.log(
			`memory: PostgreSQL server, idle RSS ${mb(server.started)} MB, after pages ${mb(server.afterPages)} MB`
		);
		console.log(
			`memory: PostgreSQL server after ${MIXED_SECONDS} s of mixed traffic (${server.requests} requests) ${mb(server.afterMixed)} MB, ` +
				`peak ${mb(server.peak)} MB; ` +
				`PGlite / PostgreSQL ${(first.afterMixed / server.afterMixed).toFixed(2)}x`
		);
		console.log(
			`memory: PGlite / PostgreSQL after pages ${(first.afterPages / server.afterPages).toFixed(2)}x (first start), ${(restart.afterPages / server.afterPages).toFixed(2)}x (restart)`
		);
	} finally {
		database.drop();
	}
}
