/**
 * Time-based one-time codes (RFC 6238: 30-second steps, 6 digits, HMAC-SHA1 as every authenticator app reads it),
 * their keys encrypted at rest, and recovery codes. Pure: no database, the clock passed in.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** A code from the step before or after is accepted too: phones' clocks drift, and typing takes time. */
const ACCEPTED_DRIFT_STEPS = 1;

export const newTotpKey = (): Uint8Array => new Uint8Array(randomBytes(20));

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export const totpUri = (key: Uint8Array, issuer: string, account: string) =>
	createTOTPKeyURI(issuer, account, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS);

/** The key as people type it into an app that cannot scan: base32, in groups of four. */
export function typedKey(key: Uint8Array): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
	let bits = '';
	for (const byte of key) bits += byte.toString(2).padStart(8, '0');
	let out = '';
	for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
	return out.match(/.{1,4}/g)!.join(' ');
}

export const stepAt = (now: Date) => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/** The code's step when it is right for `now` (± one step), else null. Compared in constant time. */
export function matchingStep(key: Uint8Array, code: string, now: Date): number | null {
	const typed = code.replace(/\s/g, '');
	if (!/^\d{6}$/.test(typed)) return null;
	const current = stepAt(now);
	let found: number | null = null;
	for (let step = current - ACCEPTED_DRIFT_STEPS; step <= current + ACCEPTED_DRIFT_STEPS; step++) {
		const expected = Buffer.from(generateHOTP(key, BigInt(step), TOTP_DIGITS));
		if (timingSafeEqual(expected, Buffer.from(typed)) && found === null) found = step;
	}
	return found;
}

/** AES-256-GCM under a key derived from SIGNING_SECRET: `iv.tag.ciphertext`, base64url. */
function cipherKey(signingSecret: string): Buffer {
	return Buffer.from(hkdfSync('sha256', signingSecret, 'atelier', 'totp-key-encryption', 32));
}

export function encryptKey(signingSecret: string, key: Uint8Array): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', cipherKey(signingSecret), iv);
	const sealed = Buffer.concat([cipher.update(key), cipher.final()]);
	return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function decryptKey(signingSecret: string, stored: string): Uint8Array {
	const [iv, tag, sealed] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
	const decipher = createDecipheriv('aes-256-gcm', cipherKey(signingSecret), iv!);
	decipher.setAuthTag(tag!);
	return new Uint8Array(Buffer.concat([decipher.update(sealed!), decipher.final()]));
}

export const RECOVERY_CODE_COUNT = 10;

/** Ten codes like `k7qm-2xvd-9hte`: 60 bits each, easy to read aloud and to type. */
export function newRecoveryCodes(): string[] {
	const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
	return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
		const bytes = randomBytes(12);
		const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
		return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
	});
}

export const looksLikeRecoveryCode = (code: string) => /^[a-z0-9]{12}$/i.test(code.replace(/[\s-]/g, ''));
