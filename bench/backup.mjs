// Part "backup": time and peak memory of `npm run backup` and `npm run restore` on 10 000 leads and 500 stored
// images (the embedded defaults), against a baseline measured in the same run: `tar -czf` of the same DATA_DIR,
// the least any backup of that folder costs. Then the same archive restored into PostgreSQL, when one answers.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
	writeSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions } from '../scripts/bundle-options.mjs';

const LEADS = 10_000;
const IMAGES = 500;
const MB = 1024 * 1024;

/**
 * Runs a command to its end; wall time, its peak resident memory and its resident memory at the last sample before
 * it exits (read from /proc while it runs, Linux). PGlite's start-up (compiling PostgreSQL's WebAssembly) makes the
 * peak; the last sample shows whether streaming the rows and objects grew the process.
 */
function measure(command, args, env = {}) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(command, args, {
			env: { ...process.env, ...env },
			stdio: ['ignore', 'ignore', 'pipe']
		});
		let stderr = '';
		child.stderr.on('data', (chunk) => (stderr += chunk));
		let peak = 0;
		let last = 0;
		const sample = () => {
			try {
				const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
				const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
				const rss = /VmRSS:\s+(\d+) kB/.exec(status);
				if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
				if (rss && Number(rss[1])) last = Number(rss[1]) * 1024;
			} catch {
				// exited between two samples
			}
		};
		const timer = setInterval(sample, 20);
		child.on('error', reject);
		child.on('exit', (code) => {
			clearInterval(timer);
			if (code !== 0)
				reject(new Error(`${path.basename(args[0] ?? command)} exited with ${code}:\n${stderr}`));
			else resolve({ seconds: (performance.now() - started) / 1000, peak, last });
		});
	});
}

function postgresDatabase() {
	const name = `atelier_bench_restore_${process.pid}`;
	const psql = (sql) =>
		execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-qc', sql], {
			stdio: 'ignore'
		});
	try {
		psql(`create database ${name}`);
	} catch {
		return null;
	}
	return {
		url: `postgres://postgres@127.0.0.1:5432/${name}`,
		drop: () => psql(`drop database if exists ${name} with (force)`)
	};
}

export async function benchBackup() {
	if (!existsSync('build/backup.js') || !existsSync('build/restore.js'))
		execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
	const seed = path.resolve('.cache/bench/backup-seed.js');
	await build({ ...bundleOptions, entryPoints: ['bench/backup-seed.ts'], outfile: seed });

	const work = mkdtempSync(path.join(tmpdir(), 'atelier-bench-backup-'));
	try {
		const source = path.join(work, 'source');
		execFileSync(
			process.execPath,
			[seed, source, String(LEADS), String(IMAGES), 'tests/fixtures/images/Landscape_3.jpg'],
			{
				stdio: ['ignore', 'ignore', 'inherit']
			}
		);
		const env = { DATABASE_URL: '', STORAGE_DRIVER: 'fs', SIGNING_SECRET: '' };

		const tarFile = path.join(work, 'baseline.tar.gz');
		const baseline = await measure('tar', ['-czf', tarFile, '-C', source, '.']);
		// Encrypted (age) to the installation's key, which the restore elsewhere is given: as an operator does it.
		const archive = path.join(work, 'backup.tar.gz.age');
		const backup = await measure(process.execPath, ['build/backup.js', archive], {
			...env,
			DATA_DIR: source
		});
		const key = path.join(source, 'backup-key.txt');
		const restore = await measure(process.execPath, ['build/restore.js', archive, '--identity', key], {
			...env,
			DATA_DIR: path.join(work, 'restored')
		});
		const mb = (bytes) => `${(bytes / MB).toFixed(0)} MB`;
		const s = (seconds) => `${seconds.toFixed(1)} s`;
		console.log(
			`backup: ${LEADS} leads + ${IMAGES} images, archive ${mb(statSync(archive).size)} ` +
				`(tar -czf of the DATA_DIR: ${mb(statSync(tarFile).size)} in ${s(baseline.seconds)})`
		);
		console.log(
			`backup: npm run backup (PGlite + fs) ${s(backup.seconds)}, peak RSS ${mb(backup.peak)}, ` +
				`${mb(backup.last)} at the end; ` +
				`${(backup.seconds / baseline.seconds).toFixed(2)}x the tar baseline`
		);
		console.log(
			`backup: npm run restore (PGlite + fs) ${s(restore.seconds)}, peak RSS ${mb(restore.peak)}, ` +
				`${mb(restore.last)} at the end`
		);

		const database = postgresDatabase();
		if (!database) {
			console.log('backup: PostgreSQL not reachable at 127.0.0.1:5432, no restore into it');
			return;
		}
		try {
			const onPostgres = {
				...env,
				DATABASE_URL: database.url,
				DATA_DIR: path.join(work, 'restored-postgres')
			};
			const intoPostgres = await measure(
				process.execPath,
				['build/restore.js', archive, '--identity', key],
				onPostgres
			);
			console.log(
				`backup: npm run restore (PostgreSQL + fs) ${s(intoPostgres.seconds)}, peak RSS ${mb(intoPostgres.peak)}`
			);
			// The same data backed up from PostgreSQL: no WebAssembly database in the process, only the stream.
			const fromPostgres = await measure(
				process.execPath,
				['build/backup.js', path.join(work, 'from-postgres.tar.gz.age')],
				onPostgres
			);
			console.log(
				`backup: npm run backup (PostgreSQL + fs) ${s(fromPostgres.seconds)}, peak RSS ${mb(fromPostgres.peak)}; ` +
					`${(fromPostgres.seconds / baseline.seconds).toFixed(2)}x the tar baseline`
			);
		} finally {
			database.drop();
		}
		await oneLargeObject(work, env, measure, mb, s);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

/**
 * One object of 250 MB (a video an admin might have put in the bucket): streamed through the backup and the
 * restore, never held whole — the peak must stay where the small ones leave it.
 */
async function oneLargeObject(work, env, measure, mb, s) {
	const source = path.join(work, 'large');
	const bucket = path.join(source, 'storage', 'private-gallery');
	mkdirSync(bucket, { recursive: true });
	const size = 250 * MB;
	const file = path.join(bucket, 'large.bin');
	const handle = openSync(file, 'w');
	const block = randomBytes(MB);
	for (let written = 0; written < size; written += MB) writeSync(handle, block);
	closeSync(handle);
	writeFileSync(
		`${file}.meta.json`,
		JSON.stringify({ contentType: 'application/octet-stream', cacheControl: 'private', etag: '"large"' })
	);
	const archive = path.join(work, 'large.tar.gz.age');
	const backup = await measure(process.execPath, ['build/backup.js', archive], { ...env, DATA_DIR: source });
	const restore = await measure(
		process.execPath,
		['build/restore.js', archive, '--identity', path.join(source, 'backup-key.txt')],
		{ ...env, DATA_DIR: path.join(work, 'large-restored') }
	);
	console.log(
		`backup: one object of 250 MB (PGlite + fs): backup ${s(backup.seconds)}, peak RSS ${mb(backup.peak)}; ` +
			`restore ${s(restore.seconds)}, peak RSS ${mb(restore.peak)}`
	);
}
