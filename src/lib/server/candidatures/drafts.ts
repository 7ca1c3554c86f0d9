/**
 * The wizard's draft between steps: the visitor's cookie holds a random token, the table only its SHA-256 (a
 * leaked table opens no draft). The answers are kept as the steps' schemas parsed them.
 */
import { createHash, randomBytes } from 'node:crypto';

export const DRAFT_COOKIE = 'candidature';

export const newDraftToken = (): string => randomBytes(20).toString('base64url');

/** Whether a cookie's value can be one of our tokens (20 random bytes in base64url). */
export const isDraftToken = (token: string | undefined): token is string =>
	!!token && /^[\w-]{27}$/.test(token);

/** Null for a cookie that cannot be one of ours. */
export const draftIdOf = (token: string | undefined): string | null =>
	isDraftToken(token) ? createHash('sha256').update(token).digest('hex') : null;
