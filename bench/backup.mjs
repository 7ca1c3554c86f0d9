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
 * Runs a command to its end: wall time, its peak resident memory and its resident memory at the last sample before
 * it exits. The peak is what `/usr/bin/time -v` says (the largest process of the run, the embedded database's
 * creation included, and what a process held before it started again with its settings), or the command's own
 * VmHWM sampled from /proc when `time` is missing; the last sample shows whether streaming grew the process.
 */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
export function measure(command, args, env = {}) {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const timeFile = TIME ? path.join(tmpdir(), `atelier-bench-time-${process.pid}-${Math.random()}`) : null;
		const child = TIME
			? spawn(TIME, ['-o', timeFile, '-f', '%M', command, ...args], {
					env: { ...process.env, ...env },
					stdio: ['ignore', 'ignore', 'pipe']
				})
			: spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
		let stderr = '';
		child.stderr.on('data', (chunk) => (stderr += chunk));
		let peak = 0;
		let last = 0;
		const sample = () => {
			try {
				// Under time(1), the command is its child.
				const pid = TIME
					? Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0])
					: child.pid;
				const status = readFileSync(`/proc/${pid}/status`, 'utf8');
				const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
				const rss = /VmRSS:\s+(\d+) kB/.exec(status);
				if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
				if (rss && Number(rss[1])) last = Number(rss[1]) * 1024;
			} catch {
				// exited between two samples, or not started yet
			}
		};
		const timer = setInterval(sample, 20);
		child.on('error', reject);
		child.on('exit', (code) => {
			clearInterval(timer);
			if (timeFile && existsSync(timeFile)) {
				const kb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1));
				if (Number.isFinite(kb)) peak = Math.max(peak, kb * 1024);
				rmSync(timeFile, { force: true });
			}
			if (code !== 0)
				reject(new Error(`${path.basename(args[0] ?? command)} exited with ${code}:\n${stderr}`));
			else resolve({ seconds: (performance.now() - started) / 1000, peak, last });
		});
	});
}

/**
 * A server's first start on a DATA_DIR with no database yet: until it answers /healthz and a few pages, then
 * SIGTERM. The peak is the whole run's (the database's creation, the migrations, the first pages).
 */
async function firstStart(dataDir) {
	const port = 40_000 + (process.pid % 20_000);
	const url = `http://127.0.0.1:${port}`;
	const running = measure(process.execPath, ['build/server.js'], {
		DATA_DIR: dataDir,
		DATABASE_URL: '',
		PORT: String(port),
		HOST: '127.0.0.1',
		ORIGIN: url
	});
	for (let i = 0; i < 600; i++) {
		const ok = await fetch(`${url}/healthz`).then(
			(r) => r.ok,
			() => false
		);
		if (ok) break;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	for (const page of ['/', '/login', '/candidature', '/macon'])
		await (await fetch(`${url}${page}`)).arrayBuffer();
	// The server under time(1): its pid is time's child.
	const server = execFileSync('pgrep', ['-f', `build/server.js`], { encoding: 'utf8' })
		.trim()
		.split('\n')
		.map(Number)
		.filter(
			(pid) =>
				readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'time' &&
				readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`PORT=${port}`)
		);
	for (const pid of server) process.kill(pid, 'SIGTERM');
	return running;
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
	// The whole build: a new embedded database comes from its template (src/lib/server/db/index.ts).
	if (!existsSync('build/backup.js') || !existsSync('build/embedded-database.tar.gz'))
		execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
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
		const verify = await measure(
			process.execPath,
			['build/backup.js', '--verify', archive, '--identity', key],
			{
				...env,
				DATA_DIR: path.join(work, 'verifying')
			}
		);
		const started = await firstStart(path.join(work, 'first-start'));
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
		console.log(
			`backup: npm run backup -- --verify ${s(verify.seconds)}, peak RSS ${mb(verify.peak)}; ` +
				`first start of a server on a new embedded database: peak RSS ${mb(started.peak)}`
		);
		await smallShape(seed, work, env, measure, mb, s);

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
 * The shape the issue « What we promise, held at the edges » measured: 4,000 leads and 4 photos (4,005 rows with
 * the admin): backup, restore into a new embedded database, --verify.
 */
async function smallShape(seed, work, env, measure, mb, s) {
	const source = path.join(work, 'small');
	execFileSync(process.execPath, [seed, source, '4000', '4', 'tests/fixtures/images/Landscape_3.jpg'], {
		stdio: ['ignore', 'ignore', 'inherit']
	});
	const archive = path.join(work, 'small.tar.gz.age');
	const backup = await measure(process.execPath, ['build/backup.js', archive], { ...env, DATA_DIR: source });
	const key = path.join(source, 'backup-key.txt');
	const restore = await measure(process.execPath, ['build/restore.js', archive, '--identity', key], {
		...env,
		DATA_DIR: path.join(work, 'small-restored')
	});
	const verify = await measure(
		process.execPath,
		['build/backup.js', '--verify', archive, '--identity', key],
		{
			...env,
			DATA_DIR: path.join(work, 'small-verifying')
		}
	);
	console.log(
		`backup: 4,000 leads + 4 photos: backup peak RSS ${mb(backup.peak)}, restore ${s(restore.seconds)} peak ` +
			`${mb(restore.peak)}, --verify ${s(verify.seconds)} peak ${mb(verify.peak)}`
	);
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
