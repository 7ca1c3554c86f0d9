// Part "memory": idle resident memory of the production server on the embedded database (PGlite), against the
// same server on a PostgreSQL server when one answers at 127.0.0.1:5432. Measured after start-up settles and
// after a round of page requests, on a first start (the database is created) and on a restart (it exists).
import { execFileSync } from 'node:child_process';
import { rssOf, startServer } from './lib.mjs';

const MB = 1024 * 1024;
const PAGES = ['/', '/macon', '/paysagiste', '/contact', '/devis', '/login'];
const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function idleRss(env) {
	const server = await startServer(env);
	await settle(2_000);
	const started = rssOf(server.child.pid);
	for (let round = 0; round < 3; round++)
		for (const page of PAGES) await (await fetch(`${server.url}${page}`)).arrayBuffer();
	await settle(3_000);
	const afterPages = rssOf(server.child.pid);
	await server.stop();
	return { started, afterPages, dataDir: server.dataDir };
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
	const first = await idleRss({ DATABASE_URL: '' });
	const restart = await idleRss({ DATABASE_URL: '', DATA_DIR: first.dataDir });
	const mb = (bytes) => (bytes / MB).toFixed(0);
	console.log(
		`memory: PGlite first start, idle RSS ${mb(first.started)} MB, after pages ${mb(first.afterPages)} MB`
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
		const server = await idleRss({ DATABASE_URL: database.url });
		console.log(
			`memory: PostgreSQL server, idle RSS ${mb(server.started)} MB, after pages ${mb(server.afterPages)} MB`
		);
		console.log(
			`memory: PGlite / PostgreSQL after pages ${(first.afterPages / server.afterPages).toFixed(2)}x (first start), ${(restart.afterPages / server.afterPages).toFixed(2)}x (restart)`
		);
	} finally {
		database.drop();
	}
}
