/**
 * The time trap: pages issue a signed timestamp when they show a form; a submission less than 3 s later was
 * not typed by a person (a test build may shorten the wait: config.ts `waits`). Issued per request, never baked into a cached page, and good for one submission: a
 * second one with the same token is a replay.
 */
import type { DbOrTx } from '../db';
import { insertSpentFormToken } from './queries';
import { sign, verifySignature } from '../signing';
import { ABUSE_WAITS } from '../config';

export const MIN_FILL_MS = ABUSE_WAITS.formMinFillMs;
export const MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function issueFormToken(secret: string, now = Date.now()): string {
	return `${now}.${sign(secret, `form:${now}`)}`;
}

export type TokenVerdict = 'ok' | 'invalid' | 'too-fast';

export function checkFormToken(
	secret: string,
	token: string,
	now = Date.now(),
	minFillMs = MIN_FILL_MS
): TokenVerdict {
	const [issued, signature] = token.split('.');
	if (!issued || !signature || !/^\d{10,16}$/.test(issued)) return 'invalid';
	if (!verifySignature(secret, `form:${issued}`, signature)) return 'invalid';
	const age = now - Number(issued);
	if (age < 0 || age > MAX_AGE_MS) return 'invalid';
	return age < minFillMs ? 'too-fast' : 'ok';
}

/**
 * Records a token as used, once: true the first time, false for a replay. Kept in the rate_limits table (shared
 * by every instance) until the token would have expired anyway, then purged with the other counters.
 */
export async function spendFormToken(db: DbOrTx, token: string): Promise<boolean> {
	const [issued] = token.split('.');
	return insertSpentFormToken(db, token, new Date(Number(issued) + MAX_AGE_MS));
}

/**
 * Why a public form's submission is spam, or null: the honeypot (`website`) filled, or a form token missing (from
 * a page, which always sends one), forged, replayed or spent too fast. Machine clients (`api`) may send none.
 * Shared by every public form (leads, candidatures).
 */
export async function spamReason(
	db: DbOrTx,
	secret: string,
	input: { website?: string; formToken?: string },
	source: 'page' | 'api',
	minFillMs = MIN_FILL_MS
): Promise<string | null> {
	if (input.website && input.website.trim() !== '') return 'champ piège rempli';
	if (!input.formToken) return source === 'page' ? 'jeton de formulaire absent' : null;
	const verdict = checkFormToken(secret, input.formToken, Date.now(), minFillMs);
	if (verdict === 'invalid') return 'jeton de formulaire invalide';
	if (!(await spendFormToken(db, input.formToken))) return 'jeton de formulaire déjà utilisé';
	if (verdict === 'too-fast')
		return `envoyé moins de ${minFillMs / 1000} secondes après l’affichage`.replace('.', ',');
	return null;
}
