// `npm run build`: the SvelteKit app (vite + adapter-node), then our server entry around it, then a stamp that
// `npm start` compares with the sources' modification times.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vite = spawnSync(
	process.execPath,
	[path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
	{
		stdio: 'inherit',
		cwd: root
	}
);
if (vite.status !== 0) process.exit(vite.status ?? 1);
await import('./build-server.mjs');
writeFileSync(path.join(root, 'build', '.built-at'), new Date().toISOString() + '\n');
