import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		adapter: adapter({ out: 'build', precompress: true }),
		// SvelteKit adds a per-response nonce to script-src; hooks.server.ts merges it into the full policy
		// built from configuration (src/lib/server/http/security-headers.ts), so inline scripts need no 'unsafe-inline'.
		csp: { mode: 'nonce', directives: { 'script-src': ['self'] } },
		// Our own CSRF check (hooks) would duplicate this; keep SvelteKit's origin check for form posts.
		csrf: { trustedOrigins: [] }
	}
};

export default config;
