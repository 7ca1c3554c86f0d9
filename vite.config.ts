import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	test: {
		include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
		environment: 'node',
		// Integration files each create their own database; running them in parallel on 2 cores is fine.
		testTimeout: 30_000,
		hookTimeout: 60_000
	}
});
