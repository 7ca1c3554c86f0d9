/**
 * Two-factor sign-in (issue "Trust", point 2): enrolment, a code after the password that is refused once used
 * (also when two requests race with it), recovery codes that each work once, a limit on wrong codes, removal by
 * its owner or by `npm run admin`, and a key that the database alone does not give away.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	codeLanes,
	confirmEnrolment,
	disableOwn,
	hasSecondFactor,
	pendingEnrolment,
	startEnrolment,
	twoFactorState,
	verifySecondFactor
} from '../../src/lib/server/auth/two-factor';
import { removeSecondFactorByCli } from '../../src/lib/server/auth/administration';
import { auditEvents, totpFactors, users } from '../../src/lib/server/db/schema';
import { RateLimitedError, ValidationError } from '../../src/lib/server/errors';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { codeAt, keyOf } from '../helpers/totp';

const SECRET = 'secret-de-signature-'.padEnd(64, 'x');
let database: TestDatabase;

beforeAll(async () => {
	database = await createTestDatabase();
});
afterAll(async () => {
	await database.dispose();
});

let counter = 0;
async function enrolled(now = new Date()) {
	const [user] = await database.db
		.insert(users)
		.values({ email: `deux-${++counter}@exemple.fr`, name: 'Deux', passwordHash: 'x' })
		.returning();
	const { uri, typedKey } = await startEnrolment(database.db, SECRET, user!, 'Atelier');
	const key = keyOf(uri);
	expect(keyOf(typedKey)).toEqual(key);
	const codes = await confirmEnrolment(
		database.db,
		SECRET,
		user!.id,
		codeAt(key, now),
		codeLanes.session(`enrol-${user!.id}`),
		now
	);
	return { user: user!, key, codes };
}

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

describe(`enrolment on ${driverName}`, () => {
	it('shows a key, is confirmed by a code from it, and gives ten recovery codes once', async () => {
		const [user] = await database.db
			.insert(users)
			.values({ email: 'enrol@exemple.fr', name: 'Enrôlé', passwordHash: 'x' })
			.returning();
		const started = await startEnrolment(database.db, SECRET, user!, 'Atelier');
		expect(started.uri).toMatch(/^otpauth:\/\/totp\/Atelier:enrol%40exemple\.fr\?/);
		// Shown again until confirmed, the same key.
		expect((await pendingEnrolment(database.db, SECRET, user!, 'Atelier'))!.uri).toBe(started.uri);
		expect(await hasSecondFactor(database.db, user!.id)).toBe(false);
		await expect(
			confirmEnrolment(database.db, SECRET, user!.id, '000000', codeLanes.session(`enrol-${user!.id}`))
		).rejects.toBeInstanceOf(ValidationError);
		const codes = await confirmEnrolment(
			database.db,
			SECRET,
			user!.id,
			codeAt(keyOf(started.uri), new Date()),
			codeLanes.session(`enrol-${user!.id}`)
		);
		expect(codes).toHaveLength(10);
		expect(await twoFactorState(database.db, user!.id)).toMatchObject({
			enabled: true,
			recoveryCodesLeft: 10
		});
		expect(await pendingEnrolment(database.db, SECRET, user!, 'Atelier')).toBeNull();
		// Stored encrypted: neither the key nor its base32 is in the row.
		const [row] = await database.db.select().from(totpFactors).where(eq(totpFactors.userId, user!.id));
		const secretParam = new URL(started.uri).searchParams.get('secret')!;
		expect(row!.encryptedKey).not.toContain(secretParam);
		expect(row!.encryptedKey).not.toContain(Buffer.from(keyOf(started.uri)).toString('base64url'));
		// Enrolling again while active is refused.
		await expect(startEnrolment(database.db, SECRET, user!, 'Atelier')).rejects.toBeInstanceOf(
			ValidationError
		);
	});
});

describe(`wrong codes while enrolling on ${driverName}`, () => {
	it('count like wrong codes at sign-in: the sixth attempt waits, even with the right code', async () => {
		const [user] = await database.db
			.insert(users)
			.values({ email: 'essais@exemple.fr', name: 'Essais', passwordHash: 'x' })
			.returning();
		const { uri } = await startEnrolment(database.db, SECRET, user!, 'Atelier');
		for (let i = 0; i < 5; i++)
			await expect(
				confirmEnrolment(database.db, SECRET, user!.id, '000000', codeLanes.session(`enrol-${user!.id}`))
			).rejects.toBeInstanceOf(ValidationError);
		await expect(
			confirmEnrolment(
				database.db,
				SECRET,
				user!.id,
				codeAt(keyOf(uri), new Date()),
				codeLanes.session(`enrol-${user!.id}`)
			)
		).rejects.toBeInstanceOf(RateLimitedError);
		expect(await hasSecondFactor(database.db, user!.id)).toBe(false);
	});
});

describe(`the code after the password on ${driverName}`, () => {
	it('accepts a fresh code once, and refuses it (or an older one) afterwards', async () => {
		const { user, key } = await enrolled(later(-60));
		const now = new Date();
		expect(
			await verifySecondFactor(
				database.db,
				SECRET,
				user.id,
				codeAt(key, now),
				codeLanes.stranger(user.id),
				now
			)
		).toMatchObject({
			method: 'totp'
		});
		await expect(
			verifySecondFactor(database.db, SECRET, user.id, codeAt(key, now), codeLanes.stranger(user.id), now)
		).rejects.toBeInstanceOf(ValidationError);
		// The code of the step before is still within the drift, but older than the one used: refused.
		await expect(
			verifySecondFactor(
				database.db,
				SECRET,
				user.id,
				codeAt(key, later(-30)),
				codeLanes.stranger(user.id),
				now
			)
		).rejects.toBeInstanceOf(ValidationError);
	});

	it('lets one of two simultaneous uses of the same code through', async () => {
		const { user, key } = await enrolled(later(-60));
		const now = new Date();
		const outcomes = await Promise.allSettled(
			Array.from({ length: 4 }, () =>
				verifySecondFactor(database.db, SECRET, user.id, codeAt(key, now), codeLanes.stranger(user.id), now)
			)
		);
		expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
	});

	it('takes each recovery code once, however it is typed', async () => {
		const { user, codes } = await enrolled();
		const typed = codes[3]!.toUpperCase().replaceAll('-', ' ');
		expect(
			await verifySecondFactor(database.db, SECRET, user.id, typed, codeLanes.stranger(user.id))
		).toMatchObject({ method: 'recovery', recoveryCodesLeft: 9 });
		await expect(
			verifySecondFactor(database.db, SECRET, user.id, codes[3]!, codeLanes.stranger(user.id))
		).rejects.toBeInstanceOf(ValidationError);
		expect((await twoFactorState(database.db, user.id)).recoveryCodesLeft).toBe(9);
	});

	it('a burst of the same recovery code, from three lanes at once, takes it once', async () => {
		const { user, codes } = await enrolled();
		// The known browser's, a stranger's and the session's lanes: each has room for a few, so that what stops the
		// burst is the code being spent in the UPDATE that checks it, not the budget.
		const lanes = [
			codeLanes.stranger(user.id),
			codeLanes.knownDevice(user.id, 'burst-device'),
			codeLanes.session('burst-session')
		];
		const burst = await Promise.allSettled(
			Array.from({ length: 6 }, (_, i) =>
				verifySecondFactor(database.db, SECRET, user.id, codes[5]!, lanes[i % lanes.length]!)
			)
		);
		expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
		expect((await twoFactorState(database.db, user.id)).recoveryCodesLeft).toBe(9);
	});

	it('stops answering after five wrong codes, even for the right one', async () => {
		const { user, key } = await enrolled(later(-60));
		for (let i = 0; i < 5; i++)
			await expect(
				verifySecondFactor(database.db, SECRET, user.id, '000000', codeLanes.stranger(user.id))
			).rejects.toBeInstanceOf(ValidationError);
		await expect(
			verifySecondFactor(database.db, SECRET, user.id, codeAt(key, new Date()), codeLanes.stranger(user.id))
		).rejects.toBeInstanceOf(RateLimitedError);
	});

	it('refuses a user with no second factor, and a key read under another secret', async () => {
		const [user] = await database.db
			.insert(users)
			.values({ email: 'sans@exemple.fr', name: 'Sans', passwordHash: 'x' })
			.returning();
		await expect(
			verifySecondFactor(database.db, SECRET, user!.id, '123456', codeLanes.stranger(user!.id))
		).rejects.toBeInstanceOf(ValidationError);
		const { user: other, key } = await enrolled(later(-60));
		await expect(
			verifySecondFactor(
				database.db,
				'autre-secret'.padEnd(64, 'y'),
				other.id,
				codeAt(key, new Date()),
				codeLanes.stranger(other.id)
			)
		).rejects.toThrow();
	});
});

describe(`removal on ${driverName}`, () => {
	it('by its owner with a code, and by npm run admin when the phone is lost (in the audit trail)', async () => {
		const { user, key } = await enrolled(later(-60));
		await disableOwn(database.db, SECRET, user, 'session-owner', codeAt(key, new Date()));
		expect(await twoFactorState(database.db, user.id)).toEqual({
			enabled: false,
			since: null,
			recoveryCodesLeft: 0
		});

		const lost = await enrolled();
		expect(await removeSecondFactorByCli(database.db, lost.user.email.toUpperCase())).toBe(true);
		expect(await hasSecondFactor(database.db, lost.user.id)).toBe(false);
		expect(await removeSecondFactorByCli(database.db, lost.user.email)).toBe(false);
		const trail = await database.db.select().from(auditEvents).where(eq(auditEvents.subjectId, lost.user.id));
		expect(trail.map((e) => [e.kind, e.actorId])).toEqual([['user.second_factor_removed', null]]);
	});
});
