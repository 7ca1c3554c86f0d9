/** What an authenticator app does with the key the enrolment page shows: the code for a given moment. */
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';

/** The key of an `otpauth://` URI, or of the typed form (`ABCD EFGH …`). */
export function keyOf(uriOrTyped: string): Uint8Array {
	const secret = uriOrTyped.startsWith('otpauth:')
		? new URL(uriOrTyped).searchParams.get('secret')!
		: uriOrTyped.replace(/\s/g, '');
	return decodeBase32IgnorePadding(secret.toUpperCase());
}

export const codeAt = (key: Uint8Array, when: Date) =>
	generateHOTP(key, BigInt(Math.floor(when.getTime() / 30_000)), 6);
