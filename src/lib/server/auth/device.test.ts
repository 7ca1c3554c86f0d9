import { describe, expect, it } from 'vitest';
import { deviceCookieName, deviceNonceFor, issueDeviceToken, madeByLink } from './device';

const SECRET = 'un secret de signature assez long pour les tests';

describe('device tokens', () => {
	it('name their account and carry a fresh nonce each time', () => {
		const a = issueDeviceToken(SECRET, 'marie@exemple.fr');
		const b = issueDeviceToken(SECRET, 'marie@exemple.fr');
		expect(deviceNonceFor(SECRET, a, 'marie@exemple.fr')).toMatch(/^[\w-]{22}$/);
		expect(deviceNonceFor(SECRET, a, 'marie@exemple.fr')).not.toBe(
			deviceNonceFor(SECRET, b, 'marie@exemple.fr')
		);
	});

	it('are refused for another account, with another secret, altered, or malformed', () => {
		const token = issueDeviceToken(SECRET, 'marie@exemple.fr');
		expect(deviceNonceFor(SECRET, token, 'paul@exemple.fr')).toBeNull();
		expect(
			deviceNonceFor('un autre secret, tout aussi long que le premier', token, 'marie@exemple.fr')
		).toBeNull();
		const [account, nonce, issued, signature] = token.split('.');
		const forged = `${account}.${nonce!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}.${issued}.${signature}`;
		expect(deviceNonceFor(SECRET, forged, 'marie@exemple.fr')).toBeNull();
		const later = `${account}.${nonce}.${Number(issued) + 1}.${signature}`;
		expect(deviceNonceFor(SECRET, later, 'marie@exemple.fr')).toBeNull();
		const moved = `${Buffer.from('paul@exemple.fr').toString('base64url')}.${nonce}.${issued}.${signature}`;
		expect(deviceNonceFor(SECRET, moved, 'paul@exemple.fr')).toBeNull();
		for (const junk of [
			undefined,
			'',
			'a.b',
			'a.b.c.d',
			'a.b.c.d.e',
			`${token}.x`,
			'x'.repeat(600),
			'\u0000.\u0000.\u0000'
		])
			expect(deviceNonceFor(SECRET, junk, 'marie@exemple.fr')).toBeNull();
	});

	it('are revoked by a password reset: those issued before it name no known browser', () => {
		const before = issueDeviceToken(SECRET, 'marie@exemple.fr', 1_800_000_000_000);
		const after = issueDeviceToken(SECRET, 'marie@exemple.fr', 1_800_000_000_002);
		const reset = new Date(1_800_000_000_001);
		expect(deviceNonceFor(SECRET, before, 'marie@exemple.fr', reset)).toBeNull();
		expect(deviceNonceFor(SECRET, after, 'marie@exemple.fr', reset)).toMatch(/^[\w-]{22}$/);
		expect(deviceNonceFor(SECRET, before, 'marie@exemple.fr', null)).toMatch(/^[\w-]{22}$/);
	});

	it('say when a device link made them known, and that cannot be removed or added without the secret', () => {
		const linked = issueDeviceToken(SECRET, 'marie@exemple.fr', Date.now(), 'link');
		const signedIn = issueDeviceToken(SECRET, 'marie@exemple.fr');
		expect(madeByLink(deviceNonceFor(SECRET, linked, 'marie@exemple.fr')!)).toBe(true);
		expect(madeByLink(deviceNonceFor(SECRET, signedIn, 'marie@exemple.fr')!)).toBe(false);
		const [account, nonce, issued, signature] = linked.split('.');
		const unlinked = `${account}.${nonce!.replace('link~', '')}.${issued}.${signature}`;
		expect(deviceNonceFor(SECRET, unlinked, 'marie@exemple.fr')).toBeNull();
	});

	it('live in a __Host- cookie behind https', () => {
		expect(deviceCookieName(new URL('https://exemple.fr'))).toBe('__Host-device');
		expect(deviceCookieName(new URL('http://127.0.0.1:3000'))).toBe('device');
	});
});
