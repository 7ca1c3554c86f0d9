/**
 * The folder Atelier is installed in (package.json, drizzle/, build/), found from this module's own file and
 * not from the current directory: `node /srv/atelier/build/server.js` started from anywhere finds its
 * migrations and its default data folder. Bundled or not, the module sits somewhere below that folder.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MARKER = path.join('drizzle', 'meta', '_journal.json');

export function findInstallRoot(from: string): string {
	for (let dir = from; ; dir = path.dirname(dir)) {
		if (existsSync(path.join(dir, MARKER))) return dir;
		if (path.dirname(dir) === dir) throw new Error(`no ${MARKER} above ${from}: is Atelier installed whole?`);
	}
}

export const installRoot = findInstallRoot(path.dirname(fileURLToPath(import.meta.url)));
