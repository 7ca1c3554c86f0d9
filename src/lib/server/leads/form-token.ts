/**
 * The time trap: pages issue a signed timestamp when they show a form; a submission less than 3 s later was
 * not typed by a person. Issued per request, never baked into a cached page. A token is good for one
 * submission: `claimFormToken` records it, so that a bot cannot fetch one token and post with it forever.
 */
import type { DbOrTx } from '../db';
import { rateLimits } from '../db/schema';
import { sign, verifySignature } from '../signing';

export const MIN_FILL_MS = 3_000;
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function issueFormToken(secret: string, now = Date.now()): string {
	return `${now}.${sign(secret, `form:${now}`)}`;
}

export type TokenVerdict = 'ok' | 'invalid' | 'too-fast';

export function checkFormToken(secret: string, token: string, now = Date.now()): TokenVerdict {
	const [issued, signature] = token.split('.');
	if (!issued || !signature || !/^\d{10,16}$/.test(issued)) return 'invalid';
	if (!verifySignature(secret, `form:${issued}`, signature)) return 'invalid';
	const age = now - Number(issued);
	if (age < 0 || age > MAX_AGE_MS) return 'invalid';
	return age < MIN_FILL_MS ? 'too-fast' : 'ok';
}

/**
 * Records a verified token as used; false when it already was. The record lives in `rate_limits` (shared by
 * every instance, purged once expired by the maintenance job) and expires an hour after the token itself
 * would be refused as too old, so a token can never be both unrecorded and accepted. Call it inside the
 * transaction that stores the submission: a submission that fails to be stored leaves its token unused.
 */
export async function claimFormToken(db: DbOrTx, token: string): Promise<boolean> {
	const issued = Number(token.split('.')[0]);
	const claimed = await db
		.insert(rateLimits)
		.values({ key: `form-token:${token}`, count: 1, resetAt: new Date(issued + MAX_AGE_MS + 3_600_000) })
		.onConflictDoNothing()
		.returning({ key: rateLimits.key });
	return claimed.length === 1;
}
