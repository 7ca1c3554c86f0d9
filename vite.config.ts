import { enhancedImages } from '@sveltejs/enhanced-img';
import { sveltekit } from '@sveltejs/kit/vite';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * sveltekit-superforms/adapters re-exports every validator library's adapter and is not marked side-effect free,
 * so the bundles keep bare `import "typebox"` lines (and the client even pulls @vinejs/vine in; sveltekit-superforms
 * #350). Its optional dependencies that this project does not itself depend on are validators we never use: they
 * resolve to an empty module. Derived from the two package.json files, so that adopting a validator (adding it to
 * ours) brings it back.
 */
function unusedValidators(): Plugin {
	const read = (file: string) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));
	const ours = read('./package.json');
	const declared = new Set([
		...Object.keys(ours.dependencies ?? {}),
		...Object.keys(ours.devDependencies ?? {})
	]);
	const unused = Object.keys(
		read('./node_modules/sveltekit-superforms/package.json').optionalDependencies ?? {}
	).filter((name) => !declared.has(name));
	const EMPTY = '\0atelier:unused-validator';
	return {
		name: 'atelier:unused-validators',
		enforce: 'pre',
		resolveId(id) {
			return unused.some((name) => id === name || id.startsWith(`${name}/`)) ? EMPTY : null;
		},
		// Named imports of it read properties of an empty object: the adapters that would use them never run.
		load(id) {
			return id === EMPTY ? { code: 'export default {};', syntheticNamedExports: true } : null;
		}
	};
}

/**
 * enhanced-img's image pipeline (vite-imagetools) claims every image import with a query string: it would
 * re-encode `fallback/*.webp?inline` (src/lib/server/images/fallbacks.ts), whose bytes must stay as committed.
 * Only `?enhanced` imports (the showcase's photos) are its business.
 */
async function enhancedImagesOnly(): Promise<Plugin[]> {
	return (await enhancedImages()).map((plugin) => {
		const load = plugin.load;
		if (plugin.name !== 'imagetools' || typeof load !== 'function') return plugin;
		return {
			...plugin,
			load(this: unknown, id: string, ...rest: unknown[]) {
				if (!/[?&]enhanced(?:[=&]|$)/.test(id)) return null;
				return (load as (...args: unknown[]) => unknown).call(this, id, ...rest);
			}
		} as Plugin;
	});
}

const shared = {
	environment: 'node' as const,
	// A worker per core. Vitest's default is one fewer (a core left for the runner, which here mostly waits): on
	// the 2-core machines CI runs on, that was one file at a time. Integration files each have their own database.
	maxWorkers: availableParallelism(),
	testTimeout: 30_000,
	hookTimeout: 60_000
};

export default defineConfig(({ isSsrBuild }) => ({
	// A test build's own waits (config.ts `abuseWaits`): scripts/build.mjs --tests sets ATELIER_TEST_BUILD=1.
	define: { __ATELIER_TEST_BUILD__: JSON.stringify(process.env.ATELIER_TEST_BUILD === '1') },
	// enhancedImages turns the showcase's photos (src/content/showcase/photos) into AVIF/WebP/JPEG at build time.
	plugins: [unusedValidators(), enhancedImagesOnly(), sveltekit()],
	build: {
		rollupOptions: {
			// The signed-in pages load the app's client: split as Rollup does by default, a lesson asked for 36
			// files of 1–22 KB, and a phone on HTTP/1.1 fetches six at a time, each a round trip — the poster
			// waited behind them (Lighthouse mobile 93–94). Chunks under 20 KB are merged into the chunks that
			// import them, where that changes no module's order of execution (Rollup checks side effects). The
			// server's chunks are read from disk once: they stay as Rollup splits them.
			output: isSsrBuild ? {} : { experimentalMinChunkSize: 20_000 }
		}
	},
	test: {
		// A test that asserts nothing proves nothing.
		expect: { requireAssertions: true },
		// What the code under test logs is shown for a failing test only: a run's output is its list of results.
		silent: 'passed-only',
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['src/**/*.test.ts'],
					...shared,
					// One module graph for all the unit files of a worker (loading it was most of the time), which
					// holds because no unit test mocks a module or leaves state behind. `npm run test:unit` runs the
					// files in a new order each time (--sequence.shuffle.files; it prints the seed, which
					// --sequence.seed=… replays), so one that starts to depend on another's leftovers fails sooner
					// or later rather than never.
					isolate: false
				}
			},
			{
				extends: true,
				test: {
					name: 'integration',
					include: ['tests/integration/**/*.test.ts'],
					// Migrated once; each file's database is a copy (tests/helpers/database.ts).
					globalSetup: ['tests/integration/database-template.ts'],
					...shared,
					// One module graph per worker, as for the unit files: each file loading the server's graph again
					// (PGlite, sharp, the domains) was 117 s of a 274 s run on 2 cores; shared, 17 s of 184 s
					// (7 December). Each file still has its own database and deps (useDepsForTests); a file that
					// mocks a module clears the registry first (content.integration.test.ts).
					isolate: false
				}
			},
			// Rules of the code (reading the sources, ESLint on plants): run once, whatever the database.
			{ extends: true, test: { name: 'static', include: ['tests/static/**/*.test.ts'], ...shared } }
		]
	}
}));
