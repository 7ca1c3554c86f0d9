import { describe, expect, it } from 'vitest';
import { rememberingSigner, sign, verifySignature } from './signing';

describe('rememberingSigner', () => {
	const secret = 'a secret of the instance';

	it('signs as sign does, for every message, remembered or not', () => {
		const signer = rememberingSigner(secret, 4);
		const messages = Array.from(
			{ length: 10 },
			(_, i) => `GET\nbucket/photo-${i % 6}.webp\n${1_800_000_000 + i}`
		);
		for (const message of [...messages, ...messages])
			expect(signer.sign(message)).toBe(sign(secret, message));
	});

	it('accepts its own signature and refuses any other, as verifySignature does', () => {
		const signer = rememberingSigner(secret);
		const message = 'GET\nbucket/hero-w800.webp\n1800000000';
		const good = sign(secret, message);
		const forged = [
			'',
			good.slice(1),
			`${good}A`,
			good.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
			// The last character only, and characters outside ASCII of the same length: every one is compared.
			good.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
			'é'.repeat(good.length),
			`${good.slice(0, -1)}\u0000`,
			sign('another secret', message),
			sign(secret, `${message}0`)
		];
		for (const attempt of [good, ...forged]) {
			expect(signer.verify(message, attempt)).toBe(verifySignature(secret, message, attempt));
			// Asked again (the signature now remembered), the same answer.
			expect(signer.verify(message, attempt)).toBe(attempt === good);
		}
	});
});
