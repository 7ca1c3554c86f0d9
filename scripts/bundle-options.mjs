// esbuild's options for our server-side bundles (scripts/build-server.mjs, the benchmarks' helpers): everything
// bundled but package.json's `dependencies`, which the production install provides.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './build-dir.mjs';

const { dependencies = {} } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

export const bundleOptions = {
	absWorkingDir: root,
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node24',
	external: Object.keys(dependencies).flatMap((name) => [name, `${name}/*`]),
	// Bundled CommonJS packages call require(); give the ES module one.
	banner: {
		js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
	},
	logLevel: 'warning',
	alias: { $lib: './src/lib' },
	// A test build's own waits (config.ts `abuseWaits`): `--tests` sets ATELIER_TEST_BUILD=1; never a real build.
	define: { __ATELIER_TEST_BUILD__: JSON.stringify(process.env.ATELIER_TEST_BUILD === '1') }
};
