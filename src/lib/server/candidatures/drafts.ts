/**
 * The wizard's draft between steps: the visitor's cookie holds a random token, the table only its SHA-256 (a
 * leaked table opens no draft). The answers are kept as the steps' schemas parsed them.
 */
import { createHash, randomBytes } from 'node:crypto';

export const DRAFT_COOKIE = 'candidature';

export const newDraftToken = (): string => randomBytes(20).toString('base64url');

/** Null for a cookie that cannot be one of ours. */
export const draftIdOf = (token: string | undefined): string | null =>
	token && /^[\w-]{27}$/.test(token) ? createHash('sha256').update(token).digest('hex') : null;
