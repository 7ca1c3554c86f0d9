/**
 * What an admin does to other accounts (issue "Trust", point 2): grant and remove admin without ever leaving the
 * site without one, remove a lost second factor, each in the audit trail; and the re-authentication those actions
 * want — the password, or a code when the account has a second factor — valid ten minutes.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	assertDeletable,
	removeSecondFactorOf,
	setAdminRole
} from '../../src/lib/server/auth/administration';
import { hashPassword } from '../../src/lib/server/auth/password';
import {
	isRecentlyReauthenticated,
	reauthenticate,
	REAUTHENTICATION_LIFETIME_MS
} from '../../src/lib/server/auth/reauthentication';
import { generateSessionToken, validateSessionToken } from '../../src/lib/server/auth/session';
import { createSession } from '../../src/lib/server/auth/session-open';
import {
	codeLanes,
	confirmEnrolment,
	hasSecondFactor,
	startEnrolment
} from '../../src/lib/server/auth/two-factor';
import { auditEvents, users } from '../../src/lib/server/db/schema';
import { ConflictError, ValidationError } from '../../src/lib/server/errors';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { codeAt, keyOf } from '../helpers/totp';

const SECRET = 'secret-de-signature-'.padEnd(64, 'x');
const PASSWORD = 'une phrase de passe solide';
let database: TestDatabase;
let passwordHash: string;

beforeAll(async () => {
	database = await createTestDatabase();
	passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
	await database.dispose();
});

let counter = 0;
async function account(isAdmin = false) {
	const [user] = await database.db
		.insert(users)
		.values({ email: `compte-${++counter}@exemple.fr`, name: `Compte ${counter}`, passwordHash, isAdmin })
		.returning();
	return user!;
}

const trailOf = (id: string) =>
	database.db.select().from(auditEvents).where(eq(auditEvents.subjectId, id)).orderBy(auditEvents.at);

describe(`granting and removing admin on ${driverName}`, () => {
	it('changes the role, says when nothing changed, and writes who did it', async () => {
		const admin = await account(true);
		const member = await account();
		expect(await setAdminRole(database.db, member.id, true, admin)).toBe(true);
		expect(await setAdminRole(database.db, member.id, true, admin)).toBe(false);
		expect(await setAdminRole(database.db, member.id, false, admin)).toBe(true);
		expect((await trailOf(member.id)).map((e) => [e.kind, e.actorEmail])).toEqual([
			['user.admin_granted', admin.email],
			['user.admin_revoked', admin.email]
		]);
	});

	it('never removes the last admin, even when two admins remove each other at once', async () => {
		await database.db.update(users).set({ isAdmin: false });
		const a = await account(true);
		const b = await account(true);
		const outcomes = await Promise.allSettled([
			setAdminRole(database.db, a.id, false, b),
			setAdminRole(database.db, b.id, false, a)
		]);
		expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
		const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
		expect(refused.reason).toBeInstanceOf(ConflictError);
		const admins = await database.db.select().from(users).where(eq(users.isAdmin, true));
		expect(admins).toHaveLength(1);
		// Deleting that last admin is refused too, and so is deleting oneself from the list.
		const member = await account();
		await expect(assertDeletable(database.db, admins[0]!.id, member)).rejects.toBeInstanceOf(ConflictError);
		await expect(assertDeletable(database.db, member.id, member)).rejects.toBeInstanceOf(ConflictError);
		await expect(assertDeletable(database.db, member.id, admins[0]!)).resolves.toBeUndefined();
	});
});

describe(`removing someone's second factor on ${driverName}`, () => {
	it('removes it once, in the trail', async () => {
		const admin = await account(true);
		const member = await account();
		const { uri } = await startEnrolment(database.db, SECRET, member, 'Atelier');
		await confirmEnrolment(
			database.db,
			SECRET,
			member.id,
			codeAt(keyOf(uri), new Date()),
			codeLanes.session(`enrol-${member.id}`)
		);
		expect(await removeSecondFactorOf(database.db, member.id, admin)).toBe(true);
		expect(await hasSecondFactor(database.db, member.id)).toBe(false);
		expect(await removeSecondFactorOf(database.db, member.id, admin)).toBe(false);
		expect((await trailOf(member.id)).map((e) => e.kind)).toEqual(['user.second_factor_removed']);
	});
});

describe(`re-authentication on ${driverName}`, () => {
	async function sessionOf(userId: string) {
		const token = generateSessionToken();
		await createSession(database.db, token, userId);
		return { token, id: (await validateSessionToken(database.db, token)).session!.id };
	}

	it('with the password: refused when wrong (under its one field), then valid ten minutes', async () => {
		const admin = await account(true);
		const { token, id } = await sessionOf(admin.id);
		const wrong = await reauthenticate(
			database.db,
			SECRET,
			{ id, userId: admin.id },
			admin,
			'pas le bon'
		).catch((e: unknown) => e);
		expect(wrong).toBeInstanceOf(ValidationError);
		expect((wrong as ValidationError).fieldErrors).toEqual({ secret: ['Mot de passe incorrect.'] });
		expect(isRecentlyReauthenticated((await validateSessionToken(database.db, token)).session!)).toBe(false);

		const at = new Date();
		await reauthenticate(database.db, SECRET, { id, userId: admin.id }, admin, PASSWORD, at);
		const session = (await validateSessionToken(database.db, token)).session!;
		expect(
			isRecentlyReauthenticated(session, new Date(at.getTime() + REAUTHENTICATION_LIFETIME_MS - 1000))
		).toBe(true);
		expect(isRecentlyReauthenticated(session, new Date(at.getTime() + REAUTHENTICATION_LIFETIME_MS))).toBe(
			false
		);
	});

	it('with a second factor: the code, not the password', async () => {
		const admin = await account(true);
		const { uri } = await startEnrolment(database.db, SECRET, admin, 'Atelier');
		const key = keyOf(uri);
		await confirmEnrolment(
			database.db,
			SECRET,
			admin.id,
			codeAt(key, new Date(Date.now() - 60_000)),
			codeLanes.session(`enrol-${admin.id}`),
			new Date(Date.now() - 60_000)
		);
		const { token, id } = await sessionOf(admin.id);
		await expect(
			reauthenticate(database.db, SECRET, { id, userId: admin.id }, admin, PASSWORD)
		).rejects.toBeInstanceOf(ValidationError);
		await reauthenticate(database.db, SECRET, { id, userId: admin.id }, admin, codeAt(key, new Date()));
		expect(isRecentlyReauthenticated((await validateSessionToken(database.db, token)).session!)).toBe(true);
	});
});
