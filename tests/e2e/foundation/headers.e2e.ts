import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

const fixedHeaders = {
	'x-content-type-options': 'nosniff',
	'x-frame-options': 'SAMEORIGIN',
	'referrer-policy': 'strict-origin-when-cross-origin',
	'permissions-policy': 'camera=(), microphone=(), geolocation=()'
};

function directives(policy: string | undefined): Record<string, string[]> {
	expect(policy, 'content-security-policy').toBeTruthy();
	return Object.fromEntries(
		policy!.split(';').map((d) => {
			const [name, ...sources] = d.trim().split(/\s+/);
			return [name, sources];
		})
	);
}

function expectSecurityHeaders(headers: Record<string, string>) {
	for (const [name, value] of Object.entries(fixedHeaders)) expect(headers[name], name).toBe(value);
	const csp = directives(headers['content-security-policy']);
	expect(csp['default-src']).toEqual(["'self'"]);
	expect(csp['img-src']).toContain('https://images.unsplash.com');
	expect(csp['object-src']).toEqual(["'none'"]);
	expect(csp['form-action']).toEqual(["'self'"]);
	expect(csp['base-uri']).toEqual(["'self'"]);
	expect(csp['frame-ancestors']).toEqual(["'self'"]);
	expect(csp['frame-src']!.every((s) => s === "'self'" || s.endsWith('.stripe.com'))).toBe(true);
	expect(csp['connect-src']).toContain("'self'");
	expect(csp['script-src']).not.toContain("'unsafe-inline'");
	return csp;
}

test('a page carries every header, with a per-response script nonce', async ({ request }) => {
	// A page that sends SvelteKit's client, whose inline script carries the nonce.
	const first = await request.get('/mot-de-passe-oublie');
	expect(first.status()).toBe(200);
	const csp = expectSecurityHeaders(first.headers());
	const nonce = csp['script-src']!.find((s) => s.startsWith("'nonce-"));
	expect(nonce).toBeTruthy();
	const html = await first.text();
	expect(html).toContain(`nonce="${nonce!.slice(7, -1)}"`);
	const second = directives((await request.get('/mot-de-passe-oublie')).headers()['content-security-policy']);
	expect(second['script-src']).not.toContain(nonce);
});

test('a cached page carries every header, and its policy matches the nonce in its HTML', async ({
	request
}) => {
	// A copy older than 60 s is served STALE while it is rendered again in the background: ask until the fresh
	// copy is in the cache.
	let cached = await request.get('/');
	await expect
		.poll(async () => {
			cached = await request.get('/');
			return cached.headers()['x-page-cache'];
		})
		.toBe('HIT');
	expectSecurityHeaders(cached.headers());
	// The home sends no client (csr off: nothing to hydrate); any script it has must carry the nonce.
	const html = await cached.text();
	const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
	expect(scripts.filter((tag) => !tag.includes('nonce=') && !tag.includes('application/ld+json'))).toEqual(
		[]
	);
});

test('an API response carries every header', async ({ request }) => {
	const response = await request.get('/healthz');
	expect(response.status()).toBe(200);
	// The release that answers: package.json's version, the commit the build was made from, and what the build is
	// (a test build is no tagged release: `version+commit`).
	const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
	const body = await response.json();
	expect(body).toEqual({
		status: 'ok',
		version,
		commit: expect.stringMatching(/^[0-9a-f]{12}$/),
		build: `${version}+${body.commit}`
	});
	expectSecurityHeaders(response.headers());
});

test('a redirect carries every header', async ({ request }) => {
	const response = await request.get('/cgv/', { maxRedirects: 0 });
	expect(response.status()).toBeGreaterThanOrEqual(300);
	expect(response.status()).toBeLessThan(400);
	expect(response.headers()['location']).toBe('/cgv');
	expectSecurityHeaders(response.headers());
});

test('an error response carries every header', async ({ request }) => {
	const response = await request.post('/mentions-legales', {
		data: {},
		headers: { origin: 'http://evil.example' }
	});
	expect(response.status()).toBeGreaterThanOrEqual(400);
	expectSecurityHeaders(response.headers());
});

test('a 404 carries every header', async ({ request }) => {
	const response = await request.get('/nulle-part');
	expect(response.status()).toBe(404);
	expectSecurityHeaders(response.headers());
});

test('static files carry every header', async ({ request }) => {
	const favicon = await request.get('/favicon.svg');
	expect(favicon.status()).toBe(200);
	expect(favicon.headers()['content-type']).toContain('image/svg+xml');
	expectSecurityHeaders(favicon.headers());

	// A hashed build asset, served by adapter-node's static handler before any SvelteKit hook.
	const html = await (await request.get('/login')).text();
	const asset = /\/_app\/immutable\/[^"']+\.js/.exec(html)?.[0];
	expect(asset).toBeTruthy();
	const script = await request.get(asset!);
	expect(script.status()).toBe(200);
	expect(script.headers()['cache-control']).toContain('immutable');
	expectSecurityHeaders(script.headers());
});

test('platform mode: robots.txt keeps crawlers out of the API and the admin, and names the sitemap', async ({
	request,
	baseURL
}) => {
	const response = await request.get('/robots.txt');
	expect(await response.text()).toBe(
		`User-agent: *\nDisallow: /api/\nDisallow: /admin\n\nSitemap: ${baseURL}/sitemap.xml\n`
	);
	expectSecurityHeaders(response.headers());
});

test('platform mode: the sitemap lists the agency’s indexable pages, absolute, and no showcase page', async ({
	request,
	baseURL
}) => {
	const xml = await (await request.get('/sitemap.xml')).text();
	const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
	expect(locs).toEqual(
		expect.arrayContaining([`${baseURL}/`, `${baseURL}/macon`, `${baseURL}/paysagiste`, `${baseURL}/devis`])
	);
	expect(locs.every((loc) => loc!.startsWith(`${baseURL}/`))).toBe(true);
	expect(locs.some((loc) => /\/(services|secteurs|blog|realisations|partenaires)/.test(loc!))).toBe(false);
});

test('each encoding of a page has its own ETag, and a matching If-None-Match gets 304 without a body', async () => {
	const base = process.env.E2E_BASE_URL!;
	// `/` comes from the page cache (its fast path once warm), /mentions-legales from SvelteKit, gzipped as it streams.
	for (const path of ['/', '/', '/mentions-legales']) {
		const tagByEncoding = new Map<string, string>();
		for (const accept of ['br', 'gzip', 'identity']) {
			const first = await fetch(base + path, { headers: { 'accept-encoding': accept } });
			expect(first.status, `${path} ${accept}`).toBe(200);
			await first.arrayBuffer();
			const etag = first.headers.get('etag');
			expect(etag, `${path} ${accept}`).toMatch(/^(W\/)?"[^"]+"$/);
			const encoding = first.headers.get('content-encoding') ?? 'identity';
			tagByEncoding.set(encoding, etag!);
			const again = await fetch(base + path, {
				headers: { 'accept-encoding': accept, 'if-none-match': etag! }
			});
			expect(again.status, `${path} ${accept} again`).toBe(304);
			expect((await again.arrayBuffer()).byteLength).toBe(0);
			expect(again.headers.get('etag')).toBe(etag);
			expect(again.headers.get('content-length') ?? '0').toBe('0');
		}
		// One tag per representation; the tag of another one is not this one's.
		const tags = [...tagByEncoding.values()];
		expect(new Set(tags).size, `${path}: ${[...tagByEncoding]}`).toBe(tagByEncoding.size);
		expect(tagByEncoding.size).toBeGreaterThan(1);
		if (tagByEncoding.has('gzip') && tagByEncoding.has('identity')) {
			const other = await fetch(base + path, {
				headers: { 'accept-encoding': 'gzip', 'if-none-match': tagByEncoding.get('identity')! }
			});
			expect(other.status).toBe(200);
			await other.arrayBuffer();
		}
	}
});
