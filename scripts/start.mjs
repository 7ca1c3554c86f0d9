// `npm start`: reads .env when there is one (ATELIER_ENV_FILE names another file; variables already set in the
// environment win), builds when build/ is missing or older than the sources, then runs the production server in this very process, which applies
// migrations before it listens. The server handles SIGTERM and SIGINT itself (drain, close, exit 0), so that
// signalling `npm start` stops it: npm passes the signal on to this process, and nothing else runs beside it.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDir, root } from './build-dir.mjs';

const envFile = process.env.ATELIER_ENV_FILE || path.join(root, '.env');
if (existsSync(envFile)) {
	process.loadEnvFile(envFile);
	console.log(`Settings read from ${path.relative(process.cwd(), envFile) || envFile}`);
}
const out = buildDir();
const stamp = path.join(out, '.built-at');
const sources = [
	'src',
	'static',
	'drizzle',
	'svelte.config.js',
	'vite.config.ts',
	'package.json',
	'package-lock.json',
	'tsconfig.json'
];

function newestMtime(target) {
	if (!existsSync(target)) return 0;
	const stat = statSync(target);
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = stat.mtimeMs;
	for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
	return newest;
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (!existsSync(path.join(out, 'server.js')) || sourcesAt > builtAt) {
	console.log(builtAt ? 'Sources changed since the last build: building…' : 'No build yet: building…');
	// In a process group of its own, so that a signal reaches vite too (the build waits for it synchronously).
	const build = spawn(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {
		stdio: 'inherit',
		cwd: root,
		detached: true
	});
	// Stopped while it builds: the build stops too, rather than running on without anyone waiting for it.
	const forward = (signal) => process.kill(-build.pid, signal);
	process.on('SIGTERM', forward).on('SIGINT', forward);
	const [code, signal] = await new Promise((resolve) => build.on('exit', (...result) => resolve(result)));
	process.off('SIGTERM', forward).off('SIGINT', forward);
	if (signal) process.kill(process.pid, signal);
	if (code !== 0) process.exit(code ?? 1);
}

await import(pathToFileURL(path.join(out, 'server.js')).href);
