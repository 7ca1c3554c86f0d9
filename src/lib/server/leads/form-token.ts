/**
 * The time trap: pages issue a signed timestamp when they show a form; a submission less than 3 s later was
 * not typed by a person. Issued per request, never baked into a cached page.
 */
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
