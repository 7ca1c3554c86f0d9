import { enhancedImages } from '@sveltejs/enhanced-img';
import { sveltekit } from '@sveltejs/kit/vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// sveltekit-superforms/adapters re-exports every validator adapter and is not marked side-effect free, so the
// SSR bundle keeps bare `import "typebox"` lines that adapter-node then bundles and warns about ("Circular
// dependency", ~150 lines; sveltekit-superforms#350). We use the zod 4 adapter only: the others' bare imports do
// nothing for us.
const UNUSED_VALIDATORS =
	/^(typebox|zod-v3-to-json-schema|@vinejs\/vine|effect|arktype|joi|yup|valibot|superstruct|class-validator|@exodus\/schemasafe|@typeschema\/class-validator|@valibot\/to-json-schema)(\/|$)/;

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
	// Integration files each create their own database; running them in parallel on 2 cores is fine.
	testTimeout: 30_000,
	hookTimeout: 60_000
};

export default defineConfig({
	// enhancedImages turns the showcase's photos (src/content/showcase/photos) into AVIF/WebP/JPEG at build time.
	plugins: [enhancedImagesOnly(), sveltekit()],
	build: {
		rollupOptions: {
			treeshake: { moduleSideEffects: (id, external) => !(external && UNUSED_VALIDATORS.test(id)) }
		}
	},
	test: {
		// A test that asserts nothing proves nothing.
		expect: { requireAssertions: true },
		// What the code under test logs is shown for a failing test only: a run's output is its list of results.
		silent: 'passed-only',
		projects: [
			{ extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], ...shared } },
			{
				extends: true,
				test: {
					name: 'integration',
					include: ['tests/integration/**/*.test.ts', 'tests/static/**/*.test.ts'],
					...shared
				}
			}
		]
	}
});
