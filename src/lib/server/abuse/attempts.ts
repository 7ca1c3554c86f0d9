/**
 * The one way a secret is checked (issue "Trust, part 2", point 1): a password at sign-in or to confirm an action,
 * a TOTP code, a recovery code, an enrolment code. Each check first takes its place in every lane it spends —
 * atomically, on PostgreSQL as on PGlite — and only then is the secret verified. So N simultaneous guesses are
 * evaluated at most as many times as the lanes have room, whatever their interleaving: nothing checks a counter
 * and counts a failure afterwards. A right secret then clears its lanes or gives its place back (proof:
 * `tests/integration/trust-attacks.integration.test.ts` ›
 * “300 simultaneous wrong codes on one pending sign-in evaluate at most 5”).
 *
 * Lanes are chosen by who asks (point 2): strangers share the account's slowed lane and their address's; a known
 * browser (device cookie) spends its own budget; a signed-in session spends its own, never the strangers'.
 */
import type { DbOrTx } from '../db';
import { RateLimitedError } from '../errors';
import { recordRateLimited } from '../metrics';
import * as rateLimit from './queries';

const MINUTES_15 = 15 * 60;

export type { Limit } from './queries';

/** A budget of attempts: a fixed window (`Limit`) or the account's slow-down (`SlowDown`). */
export type Rule = rateLimit.Limit | rateLimit.SlowDown;

export const rules = {
	/** Per client address, every sign-in attempt: 30 in 15 minutes; a right password gives its place back. */
	signInAddress: { name: 'sign-in-address', max: 30, windowSeconds: MINUTES_15, secret: true },
	/**
	 * Per account, the strangers' lane: a slow-down instead of a lock (OWASP ASVS 5.0 §6.3): 5 attempts at once
	 * (typos), then 1 s, 2 s, 4 s… between attempts, capped at 60 s. A guesser spread over any number of addresses
	 * gets about 60 tries an hour, far too few against the password rules. Forgotten after an hour of quiet; a
	 * right password in this lane clears it.
	 */
	signInAccount: {
		name: 'sign-in-account',
		free: 5,
		maxDelaySeconds: 60,
		memorySeconds: 60 * 60,
		secret: true
	},
	/** A known browser's own budget for the password (its device cookie's nonce): 10 wrong in 15 minutes. */
	signInDevice: { name: 'sign-in-device', max: 10, windowSeconds: MINUTES_15, secret: true },
	/** Codes typed after the password by an unknown browser: 5 wrong per account in 15 minutes. */
	codeAccount: { name: 'second-factor', max: 5, windowSeconds: MINUTES_15, secret: true },
	/** Codes typed by a browser the account knows: its own 5 in 15 minutes, apart from strangers'. */
	codeDevice: { name: 'second-factor-device', max: 5, windowSeconds: MINUTES_15, secret: true },
	/**
	 * Every code typed at sign-in for one account, whatever browser types it: 10 in 15 minutes. Known browsers keep
	 * their own lane below it, and it is above the strangers' 5, so the owner's browser still gets in; but making
	 * more known browsers (a device link every five minutes) never brings more codes.
	 */
	codeCeiling: { name: 'second-factor-ceiling', max: 10, windowSeconds: MINUTES_15, secret: true },
	/**
	 * A signed-in session proving its user again (re-authentication, password or e-mail change, deletion,
	 * enrolment, removing the second factor, new recovery codes): 5 wrong secrets per session in 15 minutes.
	 * Nobody but the session's holder spends it.
	 */
	session: { name: 'session-secret', max: 5, windowSeconds: MINUTES_15, secret: true }
} satisfies Record<string, SecretRule>;

/**
 * A secret check's rule: marked, so that `countRequest` (a form, a link asked for: counted, nothing given back)
 * cannot be handed one by mistake — the type refuses it (the race measured before: a count after a verify).
 */
export type SecretRule = Rule & { readonly secret: true };

export interface Lane {
	rule: Rule;
	subject: string;
}

const isSlowDown = (rule: Rule): rule is rateLimit.SlowDown => 'free' in rule;

/** Takes a place in the lane: null when taken, else the seconds until it opens. */
export const tryLane = (db: DbOrTx, lane: Lane): Promise<number | null> =>
	isSlowDown(lane.rule)
		? rateLimit.reserveSlowed(db, lane.rule, lane.subject)
		: rateLimit.take(db, lane.rule, lane.subject);

/** After a right secret: the slow-down is cleared, a window's place is given back. */
async function settle(db: DbOrTx, lane: Lane): Promise<void> {
	if (isSlowDown(lane.rule)) await rateLimit.clear(db, lane.rule, lane.subject);
	else await rateLimit.giveBack(db, lane.rule, lane.subject);
}

/** A place taken in a window, given back (an attempt another lane refused counts for nothing in this one). */
async function giveBackPlace(db: DbOrTx, lane: Lane): Promise<void> {
	if (!isSlowDown(lane.rule)) await rateLimit.giveBack(db, lane.rule, lane.subject);
}

/**
 * Spends one attempt in each lane (in order; the first closed one refuses with 429 and its wait, and gives back
 * the places the lanes before it took: an attempt the account's lane refuses must not close the address's lane
 * for everyone behind it), then runs `verify`, which throws when the secret is wrong. The places stay taken on
 * a failure, and are settled on success. `reserved` lanes were already taken by the caller (`tryLane`, to choose
 * between lanes). A slow-down's place cannot be given back (it moves its clock): it can only be the last lane.
 */
export async function spendAttempt<T>(
	db: DbOrTx,
	lanes: Lane[],
	verify: () => Promise<T>,
	reserved: Lane[] = []
): Promise<T> {
	if (lanes.slice(0, -1).some((lane) => isSlowDown(lane.rule)))
		throw new Error('a slow-down lane must be the last one: its place cannot be given back');
	for (const [index, lane] of lanes.entries()) {
		const wait = await tryLane(db, lane);
		if (wait === null) continue;
		for (const taken of lanes.slice(0, index)) await giveBackPlace(db, taken);
		recordRateLimited(lane.rule.name);
		throw new RateLimitedError(wait);
	}
	const result = await verify();
	for (const lane of [...reserved, ...lanes]) await settle(db, lane);
	return result;
}

/**
 * A request that is not a secret (a public form, registration, a reset or device link asked for): counted in its
 * window, refused with 429 and its wait when past the limit. Nothing is given back.
 */
export async function countRequest(
	db: DbOrTx,
	limit: rateLimit.Limit & { readonly secret?: never },
	subject: string
): Promise<void> {
	const { count, retryAfter } = await rateLimit.increment(db, limit, subject);
	if (count > limit.max) {
		recordRateLimited(limit.name);
		throw new RateLimitedError(Math.max(1, retryAfter));
	}
}

/** The maintenance job: counters whose window or memory has ended. */
export const purgeExpiredCounters = (db: DbOrTx) => rateLimit.purgeExpired(db);
