// What the production install holds, read from package-lock.json as `npm ci --omit=dev` would install it, and
// what must never be in it. Used by tests/static/runtime-packages.test.ts (every `npm test`) and by
// scripts/test-container.mjs (in the built image).
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** @param {string[]} parts */
const readJson = (...parts) => JSON.parse(readFileSync(path.join(root, ...parts), 'utf8'));

/**
 * Package names the lock file installs with --omit=dev.
 * @param {{ packages: Record<string, { dev?: boolean }> }} lock
 * @returns {string[]}
 */
export function productionPackages(lock = readJson('package-lock.json')) {
	return [
		...new Set(
			Object.entries(lock.packages)
				.filter(([key, entry]) => key.includes('node_modules/') && !entry.dev)
				.map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length))
		)
	].sort();
}

/**
 * The build and test tools (every devDependency, and what they pull in as peers: typescript, vite, tsx…) and
 * the validator libraries that superforms lists as optional, less the one we use. Derived from the manifests, so
 * a validator superforms adds later, or a tool we add, is covered the day it arrives.
 * @returns {Set<string>}
 */
export function forbiddenInRuntime() {
	const pkg = readJson('package.json');
	const superforms = readJson('node_modules', 'sveltekit-superforms', 'package.json');
	const ours = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
	const validators = Object.keys({
		...superforms.optionalDependencies,
		...superforms.peerDependenciesMeta
	}).filter((name) => !ours.has(name));
	return new Set([
		...validators,
		...Object.keys(pkg.devDependencies ?? {}),
		...['typescript', 'vite', 'tsx', 'esbuild', 'rollup', 'svelte', '@sveltejs/kit']
	]);
}
