/**
 * Where Atelier's files are, found from this module's own file and not from the current directory, so that
 * `node /srv/atelier/build/server.js` started from anywhere finds them:
 * - the installation (`installRoot`): the folder with package.json, node_modules, .env and the default DATA_DIR;
 * - the build this code runs from (`buildRoot`): the folder with release.json (scripts/build.mjs), which carries its
 *   own copy of the migrations. Builds sit below the installation (builds/<version>-<commit>, or build/ in the
 *   image) and have no package.json. Node resolves the `build` link to the build's real folder when it loads a
 *   module, so a server keeps reading its own build after another becomes current.
 * Tests and `vite dev` run from src/: no build, the migrations of the working tree.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function nearest(from: string, marker: string): string | null {
	for (let dir = from; ; dir = path.dirname(dir)) {
		if (existsSync(path.join(dir, marker))) return dir;
		if (path.dirname(dir) === dir) return null;
	}
}

const here = path.dirname(fileURLToPath(import.meta.url));

export function findInstallRoot(from: string): string {
	const root = nearest(from, 'package.json');
	if (!root) throw new Error(`no package.json above ${from}: is Atelier installed whole?`);
	return root;
}

export const installRoot = findInstallRoot(here);

/** The build this code was loaded from, or null (tests, `vite dev`). */
export const buildRoot: string | null = nearest(here, 'release.json');

/** The migrations this code ships: its build's own copy, else the installation's. */
export const migrationsFolder = path.join(
	buildRoot && existsSync(path.join(buildRoot, 'drizzle', 'meta', '_journal.json')) ? buildRoot : installRoot,
	'drizzle'
);
