import { describe, expect, it } from 'vitest';
import { issuePendingSignIn, pendingUserOf, PENDING_SIGN_IN_LIFETIME_MS } from './pending-sign-in';

const SECRET = 's'.repeat(64);
const USER = '00000000-0000-4000-8000-000000000001';

describe('the pending sign-in token', () => {
	it('names the account until it expires', () => {
		const now = 1_800_000_000_000;
		const token = issuePendingSignIn(SECRET, USER, now);
		expect(pendingUserOf(SECRET, token, now + 1000)).toBe(USER);
		expect(pendingUserOf(SECRET, token, now + PENDING_SIGN_IN_LIFETIME_MS)).toBeNull();
	});

	it('refuses a forged, altered or foreign token', () => {
		const token = issuePendingSignIn(SECRET, USER);
		const [, expires, signature] = token.split('.');
		expect(pendingUserOf('t'.repeat(64), token)).toBeNull();
		expect(pendingUserOf(SECRET, `00000000-0000-4000-8000-000000000002.${expires}.${signature}`)).toBeNull();
		expect(pendingUserOf(SECRET, `${USER}.${Number(expires) + 60_000}.${signature}`)).toBeNull();
		expect(pendingUserOf(SECRET, `${token}.x`)).toBeNull();
		expect(pendingUserOf(SECRET, undefined)).toBeNull();
		expect(pendingUserOf(SECRET, 'x'.repeat(300))).toBeNull();
	});
});
