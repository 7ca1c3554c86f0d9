// esbuild's options for our server-side bundles (scripts/build-server.mjs, the benchmarks' helpers): everything
// bundled but package.json's `dependencies`, which the production install provides.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { compile } from 'svelte/compiler';
import { root } from './build-dir.mjs';

/**
 * The e-mails' Svelte templates (src/lib/server/mail/templates), compiled for the server as Vite compiles them for
 * the app: the operators' commands reach a domain through its index (scripts/boundaries.js), and a domain that
 * sends e-mail imports its templates. Svelte 5 reads their TypeScript; they take no other preprocessing (the French
 * typography leaves src/lib/server out: svelte.config.js).
 */
const svelteForTheServer = {
	name: 'svelte-server',
	setup(build) {
		build.onLoad({ filter: /\.svelte$/ }, async ({ path: file }) => {
			const { js, warnings } = compile(await readFile(file, 'utf8'), { filename: file, generate: 'server' });
			return {
				contents: js.code,
				loader: 'js',
				resolveDir: path.dirname(file),
				warnings: warnings.map((w) => ({ text: w.message }))
			};
		});
	}
};

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
	plugins: [svelteForTheServer],
	// A test build's own waits (config.ts `abuseWaits`): `--tests` sets ATELIER_TEST_BUILD=1; never a real build.
	define: { __ATELIER_TEST_BUILD__: JSON.stringify(process.env.ATELIER_TEST_BUILD === '1') }
};
