import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import { typography } from './scripts/svelte-typography.js';
import { typeset } from './src/lib/typography.js';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: [
		vitePreprocess(),
		// French typography on every text of ours that visitors and members read: everything under src/ but the
		// admin (it shows what people typed) and the e-mails (src/lib/server: their plain-text twins must match).
		typography({
			include: /\/src\/(?!routes\/admin\/|lib\/components\/admin\/|lib\/server\/)/,
			typeset
		})
	],
	kit: {
		// What a deployment edits to make the site its own (company, texts, legal pages, the showcase business):
		// one folder, outside the code.
		alias: { $content: 'src/content' },
		// scripts/build.mjs names the folder; a bare `vite build` writes aside, never into a build a server runs.
		adapter: adapter({ out: process.env.ATELIER_BUILD_DIR || '.cache/vite-build', precompress: true }),
		// SvelteKit adds a per-response nonce to script-src; hooks.server.ts merges it into the full policy
		// built from configuration (src/lib/server/http/security-headers.ts), so inline scripts need no 'unsafe-inline'.
		csp: { mode: 'nonce', directives: { 'script-src': ['self'] } },
		// A page's stylesheets are small (the root's 13 KB, 4 KB compressed; the others 1–7 KB): inlined in the page
		// they cost no render-blocking request each — on a slow phone the first paint came after seven of them, and
		// Lighthouse mobile measured 1.7 s instead of 1.2 s. style-src allows inline styles.
		inlineStyleThreshold: 16 * 1024,
		// Our own CSRF check (hooks) would duplicate this; keep SvelteKit's origin check for form posts.
		csrf: { trustedOrigins: [] }
	}
};

export default config;
