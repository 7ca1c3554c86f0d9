/** HMAC-SHA256 signatures for the fs driver's URLs (and any other link the app must be able to trust later). */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function sign(secret: string, message: string): string {
	return createHmac('sha256', secret).update(message).digest('base64url');
}

export function verifySignature(secret: string, message: string, signature: string): boolean {
	const expected = Buffer.from(sign(secret, message));
	const given = Buffer.from(signature);
	return given.length === expected.length && timingSafeEqual(given, expected);
}
