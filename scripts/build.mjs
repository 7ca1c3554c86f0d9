// `npm run build`: the SvelteKit app (vite + adapter-node), then our server entry around it, then a stamp that
// `npm start` compares with the sources' modification times. The build stays quiet: a "Circular dependency"
// warning (superforms' unused validator adapters once printed ~150 of them) fails it, so that none creeps back.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vite = spawnSync(
	process.execPath,
	[path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
	{ cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }
);
process.stdout.write(vite.stdout ?? '');
process.stderr.write(vite.stderr ?? '');
if (vite.status !== 0) process.exit(vite.status ?? 1);
const circular = `${vite.stdout}\n${vite.stderr}`
	.split('\n')
	.filter((line) => /Circular dependency/i.test(line));
if (circular.length) {
	console.error(
		`build: ${circular.length} "Circular dependency" warning(s); keep the build quiet (CONTRIBUTING.md)`
	);
	process.exit(1);
}
await import('./build-server.mjs');
writeFileSync(path.join(root, 'build', '.built-at'), new Date().toISOString() + '\n');
