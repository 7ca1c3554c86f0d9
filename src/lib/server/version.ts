/**
 * Atelier's release: the version and the commit this code was built from, which the build writes into its own
 * folder (`<build>/release.json`, scripts/build.mjs). Shown in /healthz and the start line, recorded in backups.
 * Not package.json's version: after `git pull` the working tree names the next release while the server still
 * runs the previous build. Without a build (tests, `vite dev`), package.json's version and commit "unknown".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildRoot, installRoot } from './install-root';

export interface Release {
	version: string;
	commit: string;
	/**
	 * What this build is: the version for a release's tagged commit, else `version+commit` — two builds of different
	 * commits never say the same (scripts/releases.mjs `labelOf`, which the upgrade and `rollback --list` use).
	 */
	build: string;
}

let release: Release | undefined;

export function appRelease(): Release {
	release ??= readRelease();
	return release;
}

export const appVersion = (): string => appRelease().version;

function readJson(file: string): Record<string, unknown> | null {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	} catch {
		return null;
	}
}

function readRelease(): Release {
	const built = buildRoot ? readJson(path.join(buildRoot, 'release.json')) : null;
	const version =
		typeof built?.version === 'string'
			? built.version
			: String(readJson(path.join(installRoot, 'package.json'))?.version ?? 'unknown');
	const commit = typeof built?.commit === 'string' ? built.commit : 'unknown';
	return { version, commit, build: built?.release === true ? version : `${version}+${commit}` };
}
