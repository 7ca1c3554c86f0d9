import { generateHOTP } from '@oslojs/otp';
import { describe, expect, it } from 'vitest';
import {
	decryptKey,
	encryptKey,
	looksLikeRecoveryCode,
	matchingStep,
	newRecoveryCodes,
	newTotpKey,
	stepAt,
	totpUri,
	typedKey
} from './totp';

describe('TOTP codes', () => {
	// RFC 6238, appendix B: the SHA-1 key "12345678901234567890", 59 s → 94287082 (its last six digits: 287082).
	const rfcKey = new TextEncoder().encode('12345678901234567890');

	it('match the RFC 6238 test vector', () => {
		expect(matchingStep(rfcKey, '287082', new Date(59_000))).toBe(1);
		expect(matchingStep(rfcKey, '287 082', new Date(59_000))).toBe(1);
	});

	it('accept the step before and after, and nothing further', () => {
		const key = newTotpKey();
		const now = new Date('2026-11-25T12:00:10Z');
		const step = stepAt(now);
		for (const offset of [-1, 0, 1])
			expect(matchingStep(key, generateHOTP(key, BigInt(step + offset), 6), now)).toBe(step + offset);
		for (const offset of [-2, 2])
			expect(matchingStep(key, generateHOTP(key, BigInt(step + offset), 6), now)).toBeNull();
		expect(matchingStep(key, 'abcdef', now)).toBeNull();
		expect(matchingStep(key, '1234567', now)).toBeNull();
	});

	it('give apps a standard otpauth URI and people a key they can type', () => {
		const key = new Uint8Array(20).fill(255);
		expect(totpUri(key, 'Atelier', 'a@exemple.fr')).toMatch(
			/^otpauth:\/\/totp\/Atelier:a%40exemple\.fr\?.*secret=/
		);
		expect(typedKey(key)).toBe('7777 7777 7777 7777 7777 7777 7777 7777');
	});
});

describe('the key at rest', () => {
	it('round-trips under the signing secret and fails under another', () => {
		const key = newTotpKey();
		const stored = encryptKey('s'.repeat(64), key);
		expect(stored).not.toContain(Buffer.from(key).toString('base64url'));
		expect(decryptKey('s'.repeat(64), stored)).toEqual(key);
		expect(() => decryptKey('t'.repeat(64), stored)).toThrow();
	});
});

describe('recovery codes', () => {
	it('are ten distinct codes, of one shape', () => {
		const codes = newRecoveryCodes();
		expect(new Set(codes).size).toBe(10);
		for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
		const code = codes[0]!;
		expect(looksLikeRecoveryCode(code)).toBe(true);
		expect(looksLikeRecoveryCode('123456')).toBe(false);
	});
});
