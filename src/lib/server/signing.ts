/** HMAC-SHA256 signatures for the fs driver's URLs (and any other link the app must be able to trust later). */
import { createHmac } from 'node:crypto';

export function sign(secret: string, message: string): string {
	return createHmac('sha256', secret).update(message).digest('base64url');
}

export function verifySignature(secret: string, message: string, signature: string): boolean {
	return sameSignature(sign(secret, message), signature);
}

/**
 * Constant-time, whatever the signature given: every character is compared, the first difference stops nothing.
 * On the strings themselves (a signature is 43 ASCII characters), not on two buffers made of them for
 * `timingSafeEqual`: the image proxy checks a signature at every answer, and making the two buffers was most of the
 * check's time, profiled.
 */
function sameSignature(expected: string, signature: string): boolean {
	if (signature.length !== expected.length) return false;
	let difference = 0;
	for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
	return difference === 0;
}

/**
 * `sign` and `verifySignature` for one secret, remembering the latest signatures it made. The files driver signs
 * the same object for the same expiry second at every image a page shows (`/api/img/{key}`: a fresh URL per
 * request, valid an hour from that second), and checks what it just signed: one HMAC a second per object instead
 * of two per request — a tenth of the image proxy's CPU, measured (issue « Speed, part 2 »). A signature depends
 * only on the secret and the message, so a remembered one is the one a new computation would give.
 */
export function rememberingSigner(secret: string, capacity = 256) {
	const recent = new Map<string, string>();
	const signed = (message: string) => {
		let signature = recent.get(message);
		if (signature === undefined) {
			// The messages carry their expiry: yesterday's are never asked again, so the whole memory is dropped
			// when full rather than kept in order.
			if (recent.size >= capacity) recent.clear();
			recent.set(message, (signature = sign(secret, message)));
		}
		return signature;
	};
	return {
		sign: signed,
		verify: (message: string, signature: string): boolean => sameSignature(signed(message), signature)
	};
}
