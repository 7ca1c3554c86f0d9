/** Atelier's own version, from the package.json it was installed with (recorded in backups, shown to operators). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { installRoot } from './install-root';

let version: string | undefined;

export function appVersion(): string {
	version ??= (
		JSON.parse(readFileSync(path.join(installRoot, 'package.json'), 'utf8')) as { version: string }
	).version;
	return version;
}
