// Where the production build goes: build/ next to package.json, or ATELIER_BUILD_DIR. `npm test` builds into
// TEST_BUILD_DIR (`node scripts/build.mjs --tests`), so that it never replaces the build a running server uses.
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const TEST_BUILD_DIR = path.join(root, '.cache', 'test-build');

export function buildDir() {
	return path.resolve(root, process.env.ATELIER_BUILD_DIR || 'build');
}
