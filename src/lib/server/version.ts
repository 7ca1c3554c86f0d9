/**
 * Atelier's release: its version, from the package.json it was installed with, and the commit it was built from,
 * which the build writes beside the server (`<build>/release.json`, scripts/build.mjs). Shown in /healthz and the
 * start line, recorded in backups; "unknown" where no build wrote it (tests, `vite dev`, a copy without git).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { installRoot } from './install-root';

export interface Release {
	version: string;
	commit: string;
}

let release: Release | undefined;

export function appRelease(): Release {
	release ??= readRelease();
	return release;
}

export const appVersion = (): string => appRelease().version;

function readRelease(): Release {
	const { version } = JSON.parse(readFileSync(path.join(installRoot, 'package.json'), 'utf8')) as {
		version: string;
	};
	// The running entry (build/server.js, build/backup.js…) sits in the build's folder.
	const entry = process.argv[1];
	const file = entry ? path.join(path.dirname(entry), 'release.json') : null;
	if (!file || !existsSync(file)) return { version, commit: 'unknown' };
	try {
		const built = JSON.parse(readFileSync(file, 'utf8')) as Partial<Release>;
		return { version, commit: typeof built.commit === 'string' ? built.commit : 'unknown' };
	} catch {
		return { version, commit: 'unknown' };
	}
}
