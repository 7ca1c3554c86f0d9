import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PAGES, createPageRegistry, isPrivatePath, pages, type PageEntry, type SitePage } from './registry';

const COUVREUR = {
	path: '/couvreur',
	route: '/(marketing)/couvreur',
	label: 'Démo couvreur',
	modes: ['platform'],
	indexable: true,
	cacheSeconds: 30,
	slots: { prefix: 'couvreur_', fallback: 'couvreur.webp' }
} as const satisfies PageEntry;

describe('page registry', () => {
	it('derives the cached paths per mode, and how long each stays fresh', () => {
		expect([...pages.cachedPaths('platform')]).toEqual(['/', '/macon', '/paysagiste']);
		expect([...pages.cachedPaths('showcase')]).toEqual([]);
		expect([...pages.cachedPaths()]).toEqual(['/', '/macon', '/paysagiste']);
		expect(pages.freshMs('/macon')).toBe(60_000);
		expect(pages.freshMs('/contact')).toBe(0);
		expect(pages.freshMs('/nowhere')).toBe(0);
	});

	it('gives each slot key its page by the prefix rule of SEED.md part 2', () => {
		expectTypeOf<SitePage>().toEqualTypeOf<'/' | '/macon' | '/paysagiste'>();
		expect(pages.pageOfKey('macon_hero')).toBe('/macon');
		expect(pages.pageOfKey('paysagiste_gallery_3')).toBe('/paysagiste');
		expect(pages.pageOfKey('hero')).toBe('/');
		expect(pages.pageOfKey('maconnerie')).toBe('/');
		expect(pages.labelOf('/paysagiste')).toBe('Démo paysagiste');
	});

	it('says which pages exist in each mode, which are in the navigation and in the sitemap', () => {
		expect(pages.nav('platform').map((p) => p.path)).toEqual([
			'/',
			'/macon',
			'/paysagiste',
			'/formation',
			'/contact'
		]);
		expect(pages.nav('showcase').map((p) => p.path)).toEqual(['/contact']);
		expect(pages.find('/macon', 'platform')?.label).toBe('Démo maçon');
		expect(pages.find('/macon', 'showcase')).toBeUndefined();
		// Every page but the blog, which the sitemap lists once it has an article (src/routes/sitemap.xml).
		expect(pages.sitemap('platform').map((e) => e.path)).toEqual(
			PAGES.filter((p) => p.path !== '/blog').map((p) => p.path)
		);
		expect(pages.sitemap('showcase').map((e) => e.path)).toEqual([
			'/contact',
			'/mentions-legales',
			'/cgv',
			'/confidentialite'
		]);
	});

	it('leaves pages that are not indexable out of the sitemap', () => {
		const registry = createPageRegistry([
			...PAGES,
			{ path: '/merci', route: '/(marketing)/merci', label: 'Merci', modes: ['platform'], indexable: false }
		]);
		expect(registry.find('/merci')).toBeDefined();
		expect(registry.sitemap('platform').map((e) => e.path)).not.toContain('/merci');
	});

	it('makes a new cached page with slots out of one line', () => {
		const registry = createPageRegistry([...PAGES, COUVREUR]);
		expect(registry.cachedPaths('platform').has('/couvreur')).toBe(true);
		expect(registry.cachedPaths('showcase').has('/couvreur')).toBe(false);
		expect(registry.freshMs('/couvreur')).toBe(30_000);
		expect(registry.pageOfKey('couvreur_hero')).toBe('/couvreur');
		expect(registry.pageOfKey('hero')).toBe('/');
		expect(registry.labelOf('/couvreur')).toBe('Démo couvreur');
		expect(registry.sitemap('platform').map((e) => e.path)).toContain('/couvreur');
		expect(registry.slotPages.map((p) => p.slots.fallback)).toContain('couvreur.webp');
		// The shared registry is not touched.
		expect(pages.cachedPaths('platform').has('/couvreur')).toBe(false);
	});

	it('refuses a list in which no page takes the slot keys no prefix claims', () => {
		expect(() => createPageRegistry([COUVREUR])).toThrow(/prefix ''/);
	});

	it('lists only pages that have a route, and every route of the marketing group', () => {
		const routes = path.resolve('src/routes/(marketing)');
		const routeOf = (p: string) => path.join(routes, p, '+page.svelte');
		for (const page of PAGES) expect(existsSync(routeOf(page.path)), page.path).toBe(true);
		// Each names the route that renders it (what modes.ts and the 404 of the other mode go by).
		for (const page of PAGES)
			expect(existsSync(path.join('src/routes', page.route, '+page.svelte')), page.route).toBe(true);
		const folders = readdirSync(routes, { withFileTypes: true })
			.filter((d) => d.isDirectory() && existsSync(path.join(routes, d.name, '+page.svelte')))
			.map((d) => `/${d.name}`);
		for (const folder of folders) expect(pages.find(folder), folder).toBeDefined();
	});
});

describe('the private areas', () => {
	it('cover the admin and the members’ space, sub-paths included, and nothing that merely starts alike', () => {
		for (const area of [
			'/admin',
			'/admin/demandes',
			'/api/admin/modules',
			'/dashboard',
			'/profil',
			'/cours',
			'/cours/intro'
		])
			expect(isPrivatePath(area), area).toBe(true);
		for (const area of ['/', '/contact', '/administration', '/coursier', '/api/contact'])
			expect(isPrivatePath(area), area).toBe(false);
	});
});
