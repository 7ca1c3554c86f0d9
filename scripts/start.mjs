// `npm start`: builds when build/ is missing or older than the sources, then runs the production server,
// which applies migrations before it listens.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'build', '.built-at');
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
if (!existsSync(path.join(root, 'build', 'server.js')) || sourcesAt > builtAt) {
	console.log(builtAt ? 'Sources changed since the last build: building…' : 'No build yet: building…');
	const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {
		stdio: 'inherit',
		cwd: root
	});
	if (result.status !== 0) process.exit(result.status ?? 1);
}

await import(pathToFileURL(path.join(root, 'build', 'server.js')).href);
