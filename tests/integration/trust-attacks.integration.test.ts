/**
 * The attacks of issue "Trust, part 2", each against the rules themselves, on both drivers (PostgreSQL is the one
 * where simultaneous requests really interleave; PGlite serialises them):
 * - a burst of wrong codes, passwords or device guesses evaluates no more than the limit allows;
 * - a stranger with only the e-mail never keeps the owner's session from proving itself;
 * - someone with the password never keeps the owner's known browser from entering its code;
 * - a pending sign-in serves once, and not after a password change; a reset ends every way back in;
 * - the device link: single use, one e-mail per five minutes, the same answer for an unknown address.
 */
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../../src/lib/server/abuse/attempts';
import { issueDeviceToken } from '../../src/lib/server/auth/device';
import { hashPassword } from '../../src/lib/server/auth/password';
import { reauthenticate } from '../../src/lib/server/auth/reauthentication';
import { issuePasswordLink } from '../../src/lib/server/auth/recovery';
import * as accounts from '../helpers/accounts';
import { generateSessionToken, validateSessionToken } from '../../src/lib/server/auth/session';
import { createSession } from '../../src/lib/server/auth/session-open';
import {
	beginSecondFactor,
	completeSignIn,
	issueDeviceLink,
	InvalidCredentialsError,
	PendingSignInEndedError,
	signIn,
	spendDeviceLink
} from '../../src/lib/server/auth/sign-in';
import { confirmEnrolment, codeLanes, startEnrolment } from '../../src/lib/server/auth/two-factor';
import { pendingSignIns, rateLimits, users } from '../../src/lib/server/db/schema';
import { RateLimitedError, ValidationError } from '../../src/lib/server/errors';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { slowedThrough } from '../helpers/slow-down';
import { codeAt, keyOf } from '../helpers/totp';

const SECRET = 'secret-de-signature-'.padEnd(64, 'x');
const PASSWORD = 'une phrase de passe solide';
const ORIGIN = new URL('http://atelier.test');
let database: TestDatabase;
let passwordHash: string;

beforeAll(async () => {
	database = await createTestDatabase();
	passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => database.dispose());

let counter = 0;
async function account({ twoFactor = false } = {}) {
	const [user] = await database.db
		.insert(users)
		.values({ email: `cible-${++counter}@exemple.fr`, name: `Cible ${counter}`, passwordHash })
		.returning();
	if (!twoFactor) return { user: user!, key: null, codes: [] };
	const { uri } = await startEnrolment(database.db, SECRET, user!, 'Atelier');
	const key = keyOf(uri);
	const past = new Date(Date.now() - 90_000);
	const lane = codeLanes.session('enrolment');
	const codes = await confirmEnrolment(database.db, SECRET, user!.id, codeAt(key, past), lane, past);
	return { user: user!, key, codes };
}

async function sessionOf(userId: string) {
	const token = generateSessionToken();
	await createSession(database.db, token, userId);
	return { token, id: (await validateSessionToken(database.db, token)).session!.id };
}

/** What each request of a burst came to: its secret checked (and wrong), refused before, or let in. */
const outcome = (result: PromiseSettledResult<unknown>) =>
	result.status === 'fulfilled'
		? 'in'
		: result.reason instanceof ValidationError || result.reason instanceof InvalidCredentialsError
			? 'checked'
			: result.reason instanceof RateLimitedError
				? 'refused'
				: `unexpected: ${String(result.reason)}`;

const tally = (results: PromiseSettledResult<unknown>[]) => {
	const counts: Record<string, number> = {};
	for (const r of results) counts[outcome(r)] = (counts[outcome(r)] ?? 0) + 1;
	return counts;
};

/** Strangers with only the e-mail: wrong passwords until the account's lane and their address are closed. */
async function strangersPoll(email: string, times: number) {
	for (let i = 0; i < times; i++)
		await signIn(database.db, email, 'mauvais mot de passe', `198.51.100.${i % 3}`).catch(() => {});
	await expect(signIn(database.db, email, PASSWORD, '203.0.113.250')).rejects.toBeInstanceOf(
		RateLimitedError
	);
}

describe(`an attempt is spent before it is checked, on ${driverName}`, () => {
	it('300 simultaneous wrong codes on one pending sign-in evaluate at most 5', async () => {
		const { user } = await account({ twoFactor: true });
		const pending = await beginSecondFactor(database.db, user.id);
		const results = await Promise.allSettled(
			Array.from({ length: 300 }, () => completeSignIn(database.db, SECRET, pending, '000000', undefined))
		);
		const counts = tally(results);
		console.info(`300 parallel wrong codes on ${driverName}:`, counts);
		expect(counts.checked).toBeGreaterThan(0);
		expect(counts.checked).toBeLessThanOrEqual(rules.codeAccount.max);
		expect(counts.refused).toBe(300 - counts.checked!);
	});

	it('300 simultaneous wrong passwords from one address check at most its 30', async () => {
		const results = await Promise.allSettled(
			Array.from({ length: 300 }, (_, i) =>
				signIn(database.db, `inconnu-${i}@exemple.fr`, 'mauvais mot de passe', '192.0.2.77')
			)
		);
		const counts = tally(results);
		console.info(`300 parallel passwords from one address on ${driverName}:`, counts);
		expect(counts.checked).toBeGreaterThan(0);
		expect(counts.checked).toBeLessThanOrEqual(rules.signInAddress.max);
		expect(counts.refused).toBe(300 - counts.checked!);
	});

	it('300 simultaneous wrong passwords from one known browser spend at most its budget of 10', async () => {
		const { user } = await account();
		const device = { secret: SECRET, token: issueDeviceToken(SECRET, user.email) };
		const startedAt = Date.now();
		const results = await Promise.allSettled(
			Array.from({ length: 300 }, (_, i) =>
				signIn(database.db, user.email, 'mauvais mot de passe', `192.0.2.${i % 200}`, device)
			)
		);
		const counts = tally(results);
		console.info(`300 parallel passwords from one known browser on ${driverName}:`, counts);
		const [budget] = await database.db
			.select()
			.from(rateLimits)
			.where(like(rateLimits.key, `${rules.signInDevice.name}:%`));
		expect(budget!.count).toBe(rules.signInDevice.max);
		// Past its budget the browser is a stranger: the account's slow-down lets its first few through, then its pace.
		expect(counts.checked).toBeLessThanOrEqual(
			rules.signInDevice.max + rules.signInAccount.free + slowedThrough(startedAt)
		);
		expect(counts.refused).toBe(300 - counts.checked!);
	});

	it('300 simultaneous wrong codes in a session (re-authentication) evaluate at most 5', async () => {
		const { user } = await account({ twoFactor: true });
		const session = await sessionOf(user.id);
		const results = await Promise.allSettled(
			Array.from({ length: 300 }, () =>
				reauthenticate(database.db, SECRET, { id: session.id, userId: user.id }, user, '000000')
			)
		);
		const counts = tally(results);
		expect(counts.checked).toBeLessThanOrEqual(rules.session.max);
		expect(counts.refused).toBe(300 - counts.checked!);
	});
});

describe(`lanes by who asks, on ${driverName}`, () => {
	it('whatever a stranger does with the e-mail, the owner’s session proves itself at the first try', async () => {
		const { user } = await account();
		const session = await sessionOf(user.id);
		await strangersPoll(user.email, 40);
		// Re-authentication, then the password change, each at the first try.
		await reauthenticate(database.db, SECRET, { id: session.id, userId: user.id }, user, PASSWORD);
		await accounts.changePassword(database.db, {
			userId: user.id,
			sessionId: session.id,
			currentPassword: PASSWORD,
			newPassword: `${PASSWORD} neuve`
		});
		// And the e-mail change's and deletion's check of the password.
		expect(
			(
				await accounts.verifyOwnPassword(
					database.db,
					{ userId: user.id, sessionId: session.id },
					`${PASSWORD} neuve`
				)
			).id
		).toBe(user.id);
		// A session's wrong passwords spend its own budget, not the strangers' lane (nor another session's).
		const other = await sessionOf(user.id);
		for (let i = 0; i < rules.session.max; i++)
			await expect(
				accounts.verifyOwnPassword(database.db, { userId: user.id, sessionId: other.id }, 'faux')
			).rejects.toBeInstanceOf(ValidationError);
		await expect(
			accounts.verifyOwnPassword(database.db, { userId: user.id, sessionId: other.id }, 'faux')
		).rejects.toBeInstanceOf(RateLimitedError);
		expect(
			(
				await accounts.verifyOwnPassword(
					database.db,
					{ userId: user.id, sessionId: session.id },
					`${PASSWORD} neuve`
				)
			).id
		).toBe(user.id);
	});

	it('whatever someone with the password does, the owner’s known browser enters with a right code at once', async () => {
		const { user, key } = await account({ twoFactor: true });
		const ownersBrowser = issueDeviceToken(SECRET, user.email);
		// The password holder, from an unknown browser: wrong codes until the account's code lane is closed.
		for (let i = 0; i < rules.codeAccount.max + 3; i++) {
			const pending = await beginSecondFactor(database.db, user.id);
			await completeSignIn(database.db, SECRET, pending, '000000', undefined).catch(() => {});
		}
		const theirs = await beginSecondFactor(database.db, user.id);
		await expect(
			completeSignIn(database.db, SECRET, theirs, codeAt(key!, new Date()), undefined)
		).rejects.toBeInstanceOf(RateLimitedError);
		// The owner, from the browser the account knows, with the right code: in at once.
		const owners = await beginSecondFactor(database.db, user.id);
		const done = await completeSignIn(database.db, SECRET, owners, codeAt(key!, new Date()), ownersBrowser);
		expect(done.user.id).toBe(user.id);
	});
});

describe(`the pending sign-in, on ${driverName}`, () => {
	it('serves once: not again after its success', async () => {
		const { user, key, codes } = await account({ twoFactor: true });
		const pending = await beginSecondFactor(database.db, user.id);
		await completeSignIn(database.db, SECRET, pending, codeAt(key!, new Date()), undefined);
		// Even with a valid recovery code: the pending sign-in is spent.
		await expect(completeSignIn(database.db, SECRET, pending, codes[0]!, undefined)).rejects.toBeInstanceOf(
			PendingSignInEndedError
		);
	});

	it('ends with a password change, and with a reset', async () => {
		const { user, key } = await account({ twoFactor: true });
		const session = await sessionOf(user.id);
		const beforeChange = await beginSecondFactor(database.db, user.id);
		await accounts.changePassword(database.db, {
			userId: user.id,
			sessionId: session.id,
			currentPassword: PASSWORD,
			newPassword: `${PASSWORD} changée`
		});
		await expect(
			completeSignIn(database.db, SECRET, beforeChange, codeAt(key!, new Date()), undefined)
		).rejects.toBeInstanceOf(PendingSignInEndedError);

		const beforeReset = await beginSecondFactor(database.db, user.id);
		const link = await issuePasswordLink(database.db, user.id, 'reset', ORIGIN);
		await accounts.setPasswordWithLink(database.db, link.split('/').at(-1)!, `${PASSWORD} réinitialisée`);
		await expect(
			completeSignIn(database.db, SECRET, beforeReset, codeAt(key!, new Date()), undefined)
		).rejects.toBeInstanceOf(PendingSignInEndedError);
		expect(await database.db.select().from(pendingSignIns).where(eq(pendingSignIns.userId, user.id))).toEqual(
			[]
		);
	});

	it('cannot be made from SIGNING_SECRET alone (what a backup archive holds)', async () => {
		const { user, key } = await account({ twoFactor: true });
		// The old format: `<user>.<expires>.<HMAC>`, which anyone with the secret could sign.
		const { sign } = await import('../../src/lib/server/signing');
		const expires = Date.now() + 60_000;
		const forged = `${user.id}.${expires}.${sign(SECRET, `pending-sign-in:${user.id}.${expires}`)}`;
		await expect(
			completeSignIn(database.db, SECRET, forged, codeAt(key!, new Date()), undefined)
		).rejects.toBeInstanceOf(PendingSignInEndedError);
	});
});

describe(`a reset ends every way back in, on ${driverName}`, () => {
	it('sessions, pending sign-ins and known browsers issued before it', async () => {
		const { user } = await account();
		const session = await sessionOf(user.id);
		const oldBrowser = { secret: SECRET, token: issueDeviceToken(SECRET, user.email, Date.now() - 1000) };
		const link = await issuePasswordLink(database.db, user.id, 'reset', ORIGIN);
		await accounts.setPasswordWithLink(database.db, link.split('/').at(-1)!, `${PASSWORD} neuve`);
		expect((await validateSessionToken(database.db, session.token)).session).toBeNull();
		// With the strangers' lane closed, the old device cookie is a stranger's; a new one is the owner's.
		await strangersPoll(user.email, 40);
		await expect(
			signIn(database.db, user.email, `${PASSWORD} neuve`, '203.0.113.9', oldBrowser)
		).rejects.toBeInstanceOf(RateLimitedError);
		const newBrowser = { secret: SECRET, token: issueDeviceToken(SECRET, user.email) };
		expect(
			(await signIn(database.db, user.email, `${PASSWORD} neuve`, '203.0.113.9', newBrowser)).knownDevice
		).toBe(true);
	});
});

describe(`budgets that add up, on ${driverName}`, () => {
	const wrongCodes = (userId: string, deviceToken: string | undefined, times: number) =>
		Array.from({ length: times }, async () =>
			completeSignIn(database.db, SECRET, await beginSecondFactor(database.db, userId), '000000', deviceToken)
		);
	/** The places an account's rows of one rule hold. */
	const spent = async (name: string, subject: (key: string) => boolean) =>
		(
			await database.db
				.select()
				.from(rateLimits)
				.where(like(rateLimits.key, `${name}:%`))
		)
			.filter((row) => subject(row.key))
			.reduce((sum, row) => sum + row.count, 0);

	it('every code of one account, whatever browser types it, counts against one ceiling; the owner still gets in', async () => {
		const { user } = await account({ twoFactor: true });
		// Someone with the password and the mailbox: a device link every five minutes, a day of them — here 8
		// browsers made known by links, 4 by sign-ins of their own, and unknown ones, all at once.
		const linked = Array.from({ length: 8 }, (_, i) =>
			issueDeviceToken(SECRET, user.email, Date.now() - i, 'link')
		);
		const known = Array.from({ length: 4 }, (_, i) => issueDeviceToken(SECRET, user.email, Date.now() - i));
		const results = await Promise.allSettled([
			...linked.flatMap((token) => wrongCodes(user.id, token, 20)),
			...known.flatMap((token) => wrongCodes(user.id, token, 20)),
			...wrongCodes(user.id, undefined, 40)
		]);
		const counts = tally(results);
		console.info(`${results.length} parallel wrong codes from 13 browsers on ${driverName}:`, counts);
		expect(counts.checked).toBeGreaterThan(0);
		expect(counts.checked).toBeLessThanOrEqual(rules.codeCeiling.max);
		expect(counts.refused).toBe(results.length - counts.checked!);
		// Linked and unknown browsers together spent no more than the strangers' 5; every place the ceiling
		// holds is a code evaluated (the attempts a narrower lane refused gave theirs back).
		const ofUser = (rowKey: string) => rowKey.endsWith(`:${user.id}`);
		expect(await spent(rules.codeAccount.name, ofUser)).toBeLessThanOrEqual(rules.codeAccount.max);
		expect(await spent(rules.codeCeiling.name, ofUser)).toBe(counts.checked);
	});

	it('strangers’ codes never close the ceiling to the owner’s browser', async () => {
		const { user, key } = await account({ twoFactor: true });
		const linked = Array.from({ length: 6 }, () => issueDeviceToken(SECRET, user.email, Date.now(), 'link'));
		const counts = tally(
			await Promise.allSettled([
				...linked.flatMap((token) => wrongCodes(user.id, token, 30)),
				...wrongCodes(user.id, undefined, 30)
			])
		);
		// A browser made known by a link brings no codes: linked and unknown browsers share the strangers' 5.
		expect(counts.checked).toBeLessThanOrEqual(rules.codeAccount.max);
		const another = issueDeviceToken(SECRET, user.email, Date.now(), 'link');
		await expect(
			completeSignIn(
				database.db,
				SECRET,
				await beginSecondFactor(database.db, user.id),
				codeAt(key!, new Date()),
				another
			)
		).rejects.toBeInstanceOf(RateLimitedError);
		// The browser that signed in with every factor before gets in at once.
		const owners = issueDeviceToken(SECRET, user.email, Date.now() - 60_000);
		const done = await completeSignIn(
			database.db,
			SECRET,
			await beginSecondFactor(database.db, user.id),
			codeAt(key!, new Date()),
			owners
		);
		expect(done.user.id).toBe(user.id);
	});

	it('a lane that refuses gives back the places the others took: one guesser does not close the address', async () => {
		const { user } = await account();
		// An address no other test of this file signs in from (the known-browser burst spreads over 192.0.2.0–199,
		// and past its budget those attempts spend the strangers' lanes: a place of theirs would be counted here).
		const address = '198.18.0.99';
		const startedAt = Date.now();
		const results = await Promise.allSettled(
			Array.from({ length: 300 }, () => signIn(database.db, user.email, 'mauvais mot de passe', address))
		);
		const counts = tally(results);
		console.info(`300 parallel wrong passwords on one account from one address on ${driverName}:`, counts);
		expect(counts.checked).toBeLessThanOrEqual(rules.signInAccount.free + slowedThrough(startedAt));
		// The address spent a place per password evaluated, not per attempt.
		expect(await spent(rules.signInAddress.name, (rowKey) => rowKey.endsWith(`:${address}`))).toBe(
			counts.checked
		);
		// Everyone else behind that address still signs in.
		const { user: neighbour } = await account();
		expect((await signIn(database.db, neighbour.email, PASSWORD, address)).user.id).toBe(neighbour.id);
	});

	it('a password reset or change voids the unspent device links', async () => {
		const { user } = await account();
		const beforeReset = await issueDeviceLink(database.db, user.email, '192.0.2.60', ORIGIN);
		const link = await issuePasswordLink(database.db, user.id, 'reset', ORIGIN);
		await accounts.setPasswordWithLink(database.db, link.split('/').at(-1)!, `${PASSWORD} neuve`);
		expect(await spendDeviceLink(database.db, beforeReset!.link.split('/').at(-1)!)).toBeNull();

		const { user: changing } = await account();
		const session = await sessionOf(changing.id);
		const beforeChange = await issueDeviceLink(database.db, changing.email, '192.0.2.61', ORIGIN);
		await accounts.changePassword(database.db, {
			userId: changing.id,
			sessionId: session.id,
			currentPassword: PASSWORD,
			newPassword: `${PASSWORD} changée`
		});
		expect(await spendDeviceLink(database.db, beforeChange!.link.split('/').at(-1)!)).toBeNull();
	});
});

describe(`the device link, on ${driverName}`, () => {
	it('is e-mailed at most once in five minutes, serves once, and says nothing about unknown addresses', async () => {
		const { user } = await account();
		expect(await issueDeviceLink(database.db, 'personne@exemple.fr', '192.0.2.1', ORIGIN)).toBeNull();
		const first = await issueDeviceLink(database.db, user.email, '192.0.2.1', ORIGIN);
		expect(first!.link).toMatch(/^http:\/\/atelier\.test\/login\/navigateur\/[\w-]{43}$/);
		// A second request (the stranger's, or the owner's) within five minutes sends nothing.
		expect(await issueDeviceLink(database.db, user.email, '192.0.2.2', ORIGIN)).toBeNull();
		const token = first!.link.split('/').at(-1)!;
		expect((await spendDeviceLink(database.db, token))!.id).toBe(user.id);
		expect(await spendDeviceLink(database.db, token)).toBeNull();
		expect(await spendDeviceLink(database.db, 'x'.repeat(43))).toBeNull();
	});

	it('expires after fifteen minutes', async () => {
		const { user } = await account();
		const issued = await issueDeviceLink(
			database.db,
			user.email,
			'192.0.2.3',
			ORIGIN,
			Date.now() - 16 * 60_000
		);
		expect(await spendDeviceLink(database.db, issued!.link.split('/').at(-1)!)).toBeNull();
	});
});
