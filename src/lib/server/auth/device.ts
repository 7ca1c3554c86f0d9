/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a browser that has signed in
 * to an account carries a signed token naming that account. Its attempts on that account skip the account's
 * slow-down, which strangers share, and spend a budget of their own instead; so a guesser who keeps the account
 * slowed down from elsewhere never keeps its owner out. The token is `<account, base64url>.<nonce>.<HMAC>`: it
 * cannot be made or moved to another account without SIGNING_SECRET, and the nonce names this browser's budget.
 */
import { randomBytes } from 'node:crypto';
import { sign, verifySignature } from '../signing';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Long enough that the owner's browser stays known between sign-ins; renewed at each one. */
export const DEVICE_COOKIE_LIFETIME_MS = 365 * DAY_MS;

/** `__Host-` with Secure behind https, like the session cookie. */
export const deviceCookieName = (origin: URL) => (origin.protocol === 'https:' ? '__Host-device' : 'device');

const signed = (account: string, nonce: string) => `device:${account}.${nonce}`;

/** A new token for the account (lower-case e-mail), with a fresh nonce: a fresh budget at each sign-in. */
export function issueDeviceToken(secret: string, account: string): string {
	const nonce = randomBytes(16).toString('base64url');
	return `${Buffer.from(account).toString('base64url')}.${nonce}.${sign(secret, signed(account, nonce))}`;
}

/** The nonce of a token that this site signed for `account`; null for anything else (forged, another account). */
export function deviceNonceFor(secret: string, token: string | undefined, account: string): string | null {
	if (!token || token.length > 512) return null;
	const [encodedAccount, nonce, signature, ...rest] = token.split('.');
	if (!encodedAccount || !nonce || !signature || rest.length) return null;
	if (Buffer.from(encodedAccount, 'base64url').toString() !== account) return null;
	return verifySignature(secret, signed(account, nonce), signature) ? nonce : null;
}
