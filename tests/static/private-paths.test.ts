/**
 * One list of private paths (issue « The house, part 3 », point 4): the page registry's, read by the cache headers
 * (hooks.server.ts) and by the audience (insights/audience.ts). Tied to the route tree: every folder of the admin
 * and of the members' group is private, every page of the account's group uncounted — a new one cannot be missed.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPrivatePath, isUncountedPath, PAGES } from '../../src/lib/pages/registry';
import { isCountable } from '../../src/lib/server/insights/audience';

const folders = (dir: string) =>
	readdirSync(dir, { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => `/${entry.name}`);

describe('the private paths, tied to the route tree', () => {
	it('every route of the admin and of the members’ group is private, and never counted', () => {
		const routes = [
			'/admin',
			...folders('src/routes/admin').map((path) => `/admin${path}`),
			...folders('src/routes/(members)'),
			...folders('src/routes/api/admin').map((path) => `/api/admin${path}`)
		];
		expect(routes.length).toBeGreaterThan(12);
		for (const path of routes) {
			expect(isPrivatePath(path), path).toBe(true);
			expect(isUncountedPath(path), path).toBe(true);
		}
	});

	it('every page of the account’s group is uncounted (not private: nothing of anyone’s is in them)', () => {
		for (const path of folders('src/routes/(auth)')) {
			expect(isUncountedPath(path), path).toBe(true);
			expect(isPrivatePath(path), path).toBe(false);
		}
		const person = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' };
		const view = (url: string) =>
			isCountable({ method: 'GET', url, status: 200, contentType: 'text/html', headers: person, address: '203.0.113.1' });
		expect(view('/mot-de-passe-oublie')).toBe(false);
		expect(view('/bilan')).toBe(false);
		expect(view('/aide/question')).toBe(false);
	});

	it('the public pages are neither', () => {
		for (const { path } of PAGES) {
			expect(isPrivatePath(path), path).toBe(false);
			expect(isUncountedPath(path), path).toBe(false);
		}
	});
});
