/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a browser that has signed in
 * to an account carries a signed token naming that account. Its attempts on that account skip the account's
 * slow-down, which strangers share, and spend a budget of their own instead; so a guesser who keeps the account
 * slowed down from elsewhere never keeps its owner out. The token is `<account, base64url>.<nonce>.<issued>.<HMAC>`:
 * it cannot be made or moved to another account without SIGNING_SECRET, the nonce names this browser's budget, and
 * a password reset revokes every token issued before it (`users.devices_revoked_at`).
 */
import { randomBytes } from 'node:crypto';
import { sign, verifySignature } from '../signing';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Long enough that the owner's browser stays known between sign-ins; renewed at each one. */
export const DEVICE_COOKIE_LIFETIME_MS = 365 * DAY_MS;

/** `__Host-` with Secure behind https, like the session cookie. */
export const deviceCookieName = (origin: URL) => (origin.protocol === 'https:' ? '__Host-device' : 'device');

const signed = (account: string, nonce: string, issued: number) => `device:${account}.${nonce}.${issued}`;

/**
 * How a browser became known: by a sign-in that passed every factor, or by a device link (« Recevoir un lien pour
 * ce navigateur »), which proves the mailbox only. A linked browser skips the password's slow-down, as the link
 * is for, but brings no codes of its own: its codes spend the strangers' lane (sign-in.ts). Said by its nonce's
 * prefix, which the signature covers; `~` is not in base64url, so no sign-in's nonce can begin with it.
 */
export type DeviceOrigin = 'sign-in' | 'link';
const LINKED_PREFIX = 'link~';

export const madeByLink = (nonce: string) => nonce.startsWith(LINKED_PREFIX);

/** A new token for the account (lower-case e-mail), with a fresh nonce: a fresh budget at each sign-in. */
export function issueDeviceToken(
	secret: string,
	account: string,
	now = Date.now(),
	origin: DeviceOrigin = 'sign-in'
): string {
	const nonce = (origin === 'link' ? LINKED_PREFIX : '') + randomBytes(16).toString('base64url');
	const encoded = Buffer.from(account).toString('base64url');
	return `${encoded}.${nonce}.${now}.${sign(secret, signed(account, nonce, now))}`;
}

/**
 * The nonce of a token that this site signed for `account` after its devices were last revoked; null for anything
 * else (forged, another account, issued before a password reset).
 */
export function deviceNonceFor(
	secret: string,
	token: string | undefined,
	account: string,
	revokedAt: Date | null = null
): string | null {
	if (!token || token.length > 512) return null;
	const [encodedAccount, nonce, issuedText, signature, ...rest] = token.split('.');
	if (!encodedAccount || !nonce || !issuedText || !signature || rest.length) return null;
	const issued = Number(issuedText);
	if (!/^\d{1,15}$/.test(issuedText) || (revokedAt && issued <= revokedAt.getTime())) return null;
	if (Buffer.from(encodedAccount, 'base64url').toString() !== account) return null;
	return verifySignature(secret, signed(account, nonce, issued), signature) ? nonce : null;
}
