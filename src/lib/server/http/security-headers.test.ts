import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { MAP_ORIGIN, cspDirectives, scriptSrcFrom, securityHeaders } from './security-headers';

const configWith = (env: Record<string, string> = {}) =>
	loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atelier-csp-')), ...env });

function directives(policy: string): Record<string, string[]> {
	return Object.fromEntries(
		policy.split(';').map((d) => {
			const [name, ...sources] = d.trim().split(/\s+/);
			return [name, sources];
		})
	);
}

describe('securityHeaders', () => {
	it('sets the fixed headers of SEED.md part 5', () => {
		const headers = securityHeaders(configWith());
		expect(headers['x-content-type-options']).toBe('nosniff');
		expect(headers['x-frame-options']).toBe('SAMEORIGIN');
		expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
		expect(headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=()');
		expect(headers['strict-transport-security']).toBeUndefined();
	});

	it('builds the policy per resource type from configuration', () => {
		const csp = directives(
			securityHeaders(
				configWith({
					IMAGE_REMOTE_HOSTS: 'images.unsplash.com,127.0.0.1:9000',
					CMS_IMAGE_HOST: 'cms.example',
					STORAGE_DRIVER: 's3',
					S3_ENDPOINT: 'https://s3.example:9000',
					S3_ACCESS_KEY: 'a',
					S3_SECRET_KEY: 'b'
				})
			)['content-security-policy']
		);
		expect(csp['img-src']).toEqual([
			"'self'",
			'blob:',
			'https://images.unsplash.com',
			'http://127.0.0.1:9000',
			'https://127.0.0.1:9000',
			'https://cms.example',
			'https://s3.example:9000'
		]);
		expect(csp['connect-src']).toEqual(["'self'", 'https://s3.example:9000', 'https://api.stripe.com']);
		expect(csp['frame-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com']);
		expect(csp['object-src']).toEqual(["'none'"]);
		expect(csp['form-action']).toEqual(["'self'"]);
		expect(csp['base-uri']).toEqual(["'self'"]);
		expect(csp['frame-ancestors']).toEqual(["'self'"]);
		expect(csp['script-src']).toEqual(["'self'"]);
	});

	it('lists no CMS host, no storage and no payment host in showcase mode', () => {
		const csp = cspDirectives(configWith({ SITE_MODE: 'showcase', CMS_IMAGE_HOST: 'cms.example' }));
		expect(csp['img-src']).toEqual(["'self'", 'blob:', 'https://images.unsplash.com']);
		expect(csp['connect-src']).toEqual(["'self'"]);
		expect(csp['frame-src']).toEqual(["'self'"]);
		const platform = cspDirectives(configWith({ CMS_IMAGE_HOST: 'cms.example' }));
		expect(platform['img-src']).toContain('https://cms.example');
		expect(platform['connect-src']).toContain('https://api.stripe.com');
	});

	it('allows the map host in frames on the showcase map page only', () => {
		const showcase = configWith({ SITE_MODE: 'showcase' });
		expect(MAP_ORIGIN).toBe('https://www.openstreetmap.org');
		expect(cspDirectives(showcase, undefined, '/contact')['frame-src']).toEqual(["'self'", MAP_ORIGIN]);
		for (const path of ['/', '/services/murs-et-clotures', '/contact/x', undefined])
			expect(cspDirectives(showcase, undefined, path)['frame-src']).not.toContain(MAP_ORIGIN);
		expect(cspDirectives(configWith(), undefined, '/contact')['frame-src']).not.toContain(MAP_ORIGIN);
		const header = securityHeaders(showcase, undefined, '/contact')['content-security-policy'];
		expect(directives(header)['frame-src']).toContain(MAP_ORIGIN);
	});

	it('never allows inline scripts, and keeps a page nonce', () => {
		const csp = directives(
			securityHeaders(configWith(), ["'self'", "'nonce-abc'"])['content-security-policy']
		);
		expect(csp['script-src']).toEqual(["'self'", "'nonce-abc'"]);
		expect(csp['script-src']).not.toContain("'unsafe-inline'");
	});

	it('gives each response its own script sources over the policy it keeps per configuration and page kind', () => {
		const config = configWith({ SITE_MODE: 'showcase' });
		const policyOf = (scriptSrc?: string[], path?: string) =>
			securityHeaders(config, scriptSrc, path)['content-security-policy'];
		const first = policyOf(["'self'", "'nonce-one'"]);
		const second = policyOf(["'self'", "'nonce-two'", "'nonce-two'"]);
		// Exactly what building it anew gives (the mark never shows), and the second page's own nonce, once.
		expect(first).toBe(
			Object.entries(cspDirectives(config, ["'self'", "'nonce-one'"]))
				.map(([name, sources]) => [name, ...sources].join(' '))
				.join('; ')
		);
		expect(directives(second)['script-src']).toEqual(["'self'", "'nonce-two'"]);
		expect(second.replace('nonce-two', 'nonce-one')).toBe(first);
		// A `$` in a source is kept as written, not read as a replacement pattern.
		expect(directives(policyOf(["'nonce-$&$1'"]))['script-src']).toEqual(["'nonce-$&$1'"]);
		// The map page keeps its own policy, the other pages theirs, in whatever order they are asked.
		expect(directives(policyOf(undefined, '/contact'))['frame-src']).toContain(MAP_ORIGIN);
		expect(directives(policyOf(undefined, '/'))['frame-src']).not.toContain(MAP_ORIGIN);
		expect(directives(policyOf(undefined, '/contact'))['script-src']).toEqual(["'self'"]);
		expect(policyOf()).not.toContain('\u0000');
	});

	it('adds HSTS and upgrade-insecure-requests behind an https ORIGIN', () => {
		const headers = securityHeaders(configWith({ ORIGIN: 'https://atelier.example' }));
		expect(headers['strict-transport-security']).toMatch(/^max-age=\d{8}/);
		expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
	});
});

describe('scriptSrcFrom', () => {
	it('reads the script sources SvelteKit wrote', () => {
		expect(scriptSrcFrom("script-src 'self' 'nonce-x1'; style-src 'self'")).toEqual(["'self'", "'nonce-x1'"]);
		expect(scriptSrcFrom("default-src 'self'")).toBeNull();
		expect(scriptSrcFrom(null)).toBeNull();
	});
});
