import { describe, expect, it } from 'vitest';
import { afterConfirmation, confirmationUrl, isRecentlyConfirmed } from './reauthentication';

describe('the confirmation before a sensitive admin action', () => {
	it('comes back to the list the action was posted from, without the action itself', () => {
		expect(confirmationUrl(new URL('https://a.test/admin/utilisateurs?q=l%C3%A9a&/grantAdmin'))).toBe(
			'/admin/confirmer?redirectTo=%2Fadmin%2Futilisateurs%3Fq%3Dl%25C3%25A9a'
		);
		expect(confirmationUrl(new URL('https://a.test/admin/utilisateurs?/delete'))).toBe(
			'/admin/confirmer?redirectTo=%2Fadmin%2Futilisateurs'
		);
	});

	it('returns only to a page of the admin', () => {
		expect(afterConfirmation('/admin/utilisateurs?q=x')).toBe('/admin/utilisateurs?q=x');
		expect(afterConfirmation('/admin')).toBe('/admin');
		for (const elsewhere of [
			null,
			'',
			'https://evil.test/admin',
			'//evil.test/admin',
			'/administrateur',
			'/profil'
		])
			expect(afterConfirmation(elsewhere)).toBe('/admin');
	});

	it('holds for ten minutes after the session confirmed, and not without a confirmation', () => {
		const url = new URL('https://a.test/admin/utilisateurs?/delete');
		const event = (reauthenticatedAt: Date | null) => ({
			url,
			locals: {
				user: null,
				session: { id: 's', userId: 'u', expiresAt: new Date(Date.now() + 60_000), reauthenticatedAt }
			}
		});
		expect(isRecentlyConfirmed(event(new Date(Date.now() - 60_000)))).toBe(true);
		for (const stale of [null, new Date(Date.now() - 11 * 60_000)])
			expect(isRecentlyConfirmed(event(stale))).toBe(false);
	});
});
