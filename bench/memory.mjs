// Part "memory" of `npm run bench` (issue: hardening, memory of the embedded default): resident memory of the
// idle production server on the embedded database (PGlite in DATA_DIR/db) against the same server on the
// machine's PostgreSQL (a fresh database, dropped afterwards), after start-up and after a round of page requests.
import postgres from 'postgres';
import { fmt, rssOf, startServer } from './lib.mjs';

const POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUESTS = 200;
// Public pages: the cached ones, and a query string that makes the home page render (database read included).
const PATHS = ['/', '/contact', '/devis', '/macon', '/paysagiste', '/mentions-legales', '/login', '/healthz'];

const mb = (bytes) => bytes / 2 ** 20;

/** RSS once it has stopped moving: samples every 500 ms until two agree within 1 MB (at most 15 s). */
async function settledRss(pid) {
	let previous = rssOf(pid);
	for (let i = 0; i < 30; i++) {
		await new Promise((r) => setTimeout(r, 500));
		const current = rssOf(pid);
		if (Math.abs(current - previous) < 2 ** 20) return current;
		previous = current;
	}
	return previous;
}

async function measure(env) {
	const server = await startServer(env);
	try {
		const startup = await settledRss(server.child.pid);
		for (let i = 0; i < REQUESTS; i++) {
			const target = i % 4 === 3 ? `/?bench=${i}` : PATHS[i % PATHS.length];
			const response = await fetch(server.url + target);
			await response.arrayBuffer();
			if (!response.ok) throw new Error(`${target} answered ${response.status}`);
		}
		return { startup, requests: await settledRss(server.child.pid), dataDir: server.dataDir };
	} finally {
		await server.stop();
	}
}

/** A fresh database on the machine's PostgreSQL, or null when none answers at 127.0.0.1:5432. */
async function freshPostgresDatabase() {
	const admin = postgres(POSTGRES, { max: 1, connect_timeout: 3, onnotice: () => {} });
	const name = `atelier_bench_${process.pid}_${Date.now()}`;
	try {
		await admin.unsafe(`create database ${name}`);
	} catch {
		await admin.end({ timeout: 1 });
		return null;
	}
	return {
		url: POSTGRES.replace(/\/postgres$/, `/${name}`),
		drop: async () => {
			await admin.unsafe(`drop database if exists ${name} with (force)`);
			await admin.end({ timeout: 5 });
		}
	};
}

export async function benchMemory() {
	// First start: an empty DATA_DIR, so PGlite runs initdb; then a restart on the directory it created.
	const first = await measure({});
	const restart = await measure({ DATA_DIR: first.dataDir });
	const line = (name, m, what) =>
		console.log(
			`memory.${name}_mb ${fmt(mb(m.startup), 0)} after start-up, ${fmt(mb(m.requests), 0)} after ${REQUESTS} requests (${what})`
		);
	line('pglite_first_start_rss', first, 'embedded database, empty DATA_DIR');
	line('pglite_restart_rss', restart, 'embedded database, existing DATA_DIR');

	const database = await freshPostgresDatabase();
	if (!database) {
		console.log('memory.pglite_vs_postgres_ratio skipped (no PostgreSQL at 127.0.0.1:5432)');
		return;
	}
	let pg;
	try {
		pg = await measure({ DATABASE_URL: database.url });
	} finally {
		await database.drop();
	}
	line('postgres_rss', pg, 'same server on PostgreSQL, fresh database');
	for (const [label, key] of [
		['startup', 'startup'],
		['after_requests', 'requests']
	])
		console.log(
			`memory.pglite_vs_postgres_${label}_ratio ${fmt(first[key] / pg[key])} (first start; restart ${fmt(restart[key] / pg[key])}; PGlite ${fmt(mb(first[key]), 0)} MB / PostgreSQL ${fmt(mb(pg[key]), 0)} MB)`
		);
}
