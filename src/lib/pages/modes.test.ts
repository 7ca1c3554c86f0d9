import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_ROUTE_IDS, routeExistsIn } from './modes';

const routes = path.resolve(import.meta.dirname, '../../routes');

/** Every route id of the tree, as SvelteKit spells them ('/(marketing)/contact', '/api/admin/modules/[id=uuid]'). */
function routeIds(dir = routes, id = ''): string[] {
	const entries = readdirSync(dir, { withFileTypes: true });
	const here = entries.some((e) => e.isFile() && /^\+(page|server)(\.server)?\.(ts|svelte)$/.test(e.name))
		? [id || '/']
		: [];
	return [
		...here,
		...entries
			.filter((e) => e.isDirectory())
			.flatMap((e) => routeIds(path.join(dir, e.name), `${id}/${e.name}`))
	];
}

describe('site modes', () => {
	const ids = routeIds().map((id) => (id === '/' ? '/' : id));

	it('walks a route tree with platform routes in it', () => {
		expect(ids).toContain('/(marketing)/devis');
		expect(ids).toContain('/api/admin/modules/[id=uuid]');
	});

	it('keeps every route in platform mode', () => {
		expect(ids.filter((id) => !routeExistsIn(id, 'platform') && !id.startsWith('/(showcase)'))).toEqual([]);
	});

	it('in showcase mode, keeps only the shared and showcase routes', () => {
		const kept = ids.filter((id) => routeExistsIn(id, 'showcase'));
		expect(kept.every((id) => SHARED_ROUTE_IDS.has(id) || id.startsWith('/(showcase)'))).toBe(true);
		for (const platformOnly of [
			'/admin',
			'/api/candidature',
			'/(marketing)/devis',
			'/api/devis',
			'/(auth)/login',
			'/api/img/[key]'
		])
			expect(routeExistsIn(platformOnly, 'showcase'), platformOnly).toBe(false);
	});

	it('names only shared routes that exist', () => {
		for (const id of SHARED_ROUTE_IDS) expect(ids, id).toContain(id);
	});
});
