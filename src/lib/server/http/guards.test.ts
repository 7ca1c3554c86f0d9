import { isRedirect, type Cookies } from '@sveltejs/kit';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, UnauthorizedError } from '../errors';
import { decide } from '../auth/access';
import { requireAdmin, requireUser } from './guards';
import type { SessionUser } from '../auth/session';

const member: SessionUser = { id: 'u1', email: 'm@exemple.fr', name: 'M', isAdmin: false };
const admin: SessionUser = { ...member, id: 'u2', isAdmin: true };

const event = (user: SessionUser | null, path: string, routeId: string) => ({
	locals: { user, session: null },
	url: new URL(`http://localhost${path}`),
	route: { id: routeId },
	// Only the admin pages' redirect of a member writes a cookie (the flash message): not reached here.
	cookies: {} as Cookies
});

describe('decide', () => {
	it.each([
		[null, 'user', 'unauthenticated'],
		[null, 'admin', 'unauthenticated'],
		[member, 'user', 'allow'],
		[member, 'admin', 'forbidden'],
		[admin, 'user', 'allow'],
		[admin, 'admin', 'allow']
	] as const)('%o at level %s → %s', (user, level, expected) => {
		expect(decide(user, level)).toBe(expected);
	});
});

describe('requireUser', () => {
	it('returns the member', () => {
		expect(requireUser(event(member, '/profil', '/(members)/profil'))).toBe(member);
	});

	it('sends a signed-out visitor to sign in, then back', () => {
		try {
			requireUser(event(null, '/cours/intro?x=1', '/(members)/cours/[slug]'));
			expect.unreachable();
		} catch (error) {
			expect(isRedirect(error)).toBe(true);
			expect((error as { status: number; location: string }).status).toBe(303);
			expect((error as { location: string }).location).toBe('/login?redirectTo=%2Fcours%2Fintro%3Fx%3D1');
		}
	});

	it('answers 401 on the API', () => {
		expect(() => requireUser(event(null, '/api/x', '/api/x'))).toThrow(UnauthorizedError);
	});
});

describe('requireAdmin on the API', () => {
	it('answers 401 to a visitor and 403 to a member', async () => {
		await expect(
			requireAdmin(event(null, '/api/admin/modules', '/api/admin/modules'))
		).rejects.toBeInstanceOf(UnauthorizedError);
		await expect(
			requireAdmin(event(member, '/api/admin/modules', '/api/admin/modules'))
		).rejects.toBeInstanceOf(ForbiddenError);
	});

	it('lets an admin through', async () => {
		await expect(requireAdmin(event(admin, '/api/admin/modules', '/api/admin/modules'))).resolves.toBe(admin);
	});
});
