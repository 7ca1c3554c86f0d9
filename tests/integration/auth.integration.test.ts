import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminAlreadyExistsError } from '../../src/lib/server/auth/registration';
import { InvalidCredentialsError } from '../../src/lib/server/auth/sign-in';
import { inHashingSlot } from '../../src/lib/server/auth/hashing-slots';
import * as accounts from '../helpers/accounts';
import { signIn } from '../helpers/sign-in';
import {
	LAST_SEEN_PRECISION_MS,
	SESSION_LIFETIME_MS,
	endSessionByHandle,
	generateSessionToken,
	invalidateOtherSessions,
	purgeExpiredSessions,
	sessionIdOf,
	sessionsOf,
	validateSessionToken
} from '../../src/lib/server/auth/session';
import { createSession } from '../../src/lib/server/auth/session-open';
import { rateLimits, sessions, users } from '../../src/lib/server/db/schema';
import { ValidationError } from '../../src/lib/server/errors';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
	database = await createTestDatabase();
});
afterAll(() => database.dispose());
beforeEach(async () => {
	await database.db.delete(sessions);
	await database.db.delete(users);
	await database.db.delete(rateLimits);
});

const DAY = 24 * 60 * 60 * 1000;
const goodPassword = 'une phrase de passe solide';
const newMember = (email = 'Marie@Exemple.fr') => ({
	name: 'Marie',
	email: email.toLowerCase(),
	password: goodPassword
});

describe(`accounts on ${driverName}`, () => {
	it('registers with a lower-case e-mail and an argon2id hash', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
		expect(row?.email).toBe('marie@exemple.fr');
		expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
		expect(row?.isAdmin).toBe(false);
	});

	it('refuses a second account with the same e-mail, and a common password', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		await expect(accounts.register(database.db, newMember(), '10.0.0.1')).rejects.toMatchObject({
			fieldErrors: { email: [expect.stringContaining('existe déjà')] }
		});
		await expect(
			accounts.register(database.db, { ...newMember('autre@exemple.fr'), password: 'azertyuiop' }, '10.0.0.1')
		).rejects.toBeInstanceOf(ValidationError);
		expect(await accounts.countUsers(database.db)).toBe(1);
	});

	it('signs in whatever the case of the e-mail, and refuses a wrong password or unknown e-mail alike', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		const user = await signIn(database.db, '  MARIE@exemple.FR ', goodPassword, '10.0.0.2');
		expect(user.email).toBe('marie@exemple.fr');
		const wrong = signIn(database.db, 'marie@exemple.fr', 'pas le bon mot', '10.0.0.2');
		await expect(wrong).rejects.toBeInstanceOf(InvalidCredentialsError);
		const unknown = signIn(database.db, 'personne@exemple.fr', goodPassword, '10.0.0.2');
		await expect(unknown).rejects.toThrow(new InvalidCredentialsError().message);
	});

	it('spends one hash for an unknown e-mail, as for a wrong password (no timing oracle)', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		const hashesOf = async (email: string) => {
			const before = inHashingSlot.started();
			await signIn(database.db, email, 'mauvais mot de passe', `10.1.0.${Math.random()}`).catch(() => {});
			return inHashingSlot.started() - before;
		};
		await hashesOf('personne@exemple.fr'); // warm-up: the dummy hash is made once
		// Counted, not timed: both paths verify one argon2id hash of the same parameters (the dummy is made by
		// hashPassword), so both cost the same. Timing it on a busy 2-core machine put one median at twice the other.
		for (let i = 0; i < 3; i++) {
			expect(await hashesOf('marie@exemple.fr')).toBe(1);
			expect(await hashesOf(`personne${i}@exemple.fr`)).toBe(1);
		}
		// And a right password, one hash too.
		const before = inHashingSlot.started();
		await signIn(database.db, 'marie@exemple.fr', goodPassword, '10.1.0.9');
		expect(inHashingSlot.started() - before).toBe(1);
	});
});

describe(`sessions on ${driverName}`, () => {
	it('keeps only the SHA-256 of the token and finds the user by the token', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		const token = generateSessionToken();
		await createSession(database.db, token, user.id);
		const rows = await database.db.select().from(sessions);
		expect(rows).toHaveLength(1);
		expect(rows[0]!.id).toBe(sessionIdOf(token));
		expect(JSON.stringify(rows)).not.toContain(token);
		const result = await validateSessionToken(database.db, token);
		expect(result.user?.email).toBe('marie@exemple.fr');
		expect((await validateSessionToken(database.db, generateSessionToken())).session).toBeNull();
	});

	it('lasts 30 days, is extended when under 15 days remain, and dies when expired', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		const token = generateSessionToken();
		const created = new Date('2026-01-01T00:00:00Z');
		const session = await createSession(database.db, token, user.id, created);
		expect(session.expiresAt.getTime() - created.getTime()).toBe(SESSION_LIFETIME_MS);

		const day10 = new Date(created.getTime() + 10 * DAY);
		const fresh = await validateSessionToken(database.db, token, day10);
		expect(fresh.renewed).toBe(false);
		expect(fresh.session?.expiresAt.getTime()).toBe(session.expiresAt.getTime());

		const day20 = new Date(created.getTime() + 20 * DAY);
		const renewed = await validateSessionToken(database.db, token, day20);
		expect(renewed.renewed).toBe(true);
		expect(renewed.session?.expiresAt.getTime()).toBe(day20.getTime() + SESSION_LIFETIME_MS);

		const later = new Date(day20.getTime() + SESSION_LIFETIME_MS + 1);
		expect((await validateSessionToken(database.db, token, later)).session).toBeNull();
		expect(await database.db.select().from(sessions)).toHaveLength(0);
	});

	it('lists a member’s open sessions with device, network and last use, and ends one or all others', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		const other = await accounts.register(database.db, newMember('paul@exemple.fr'), '10.0.0.1');
		const opened = new Date(Date.now() - DAY);
		const phone = generateSessionToken();
		const laptop = generateSessionToken();
		const tablet = generateSessionToken();
		await createSession(database.db, phone, user.id, opened, {
			userAgent:
				'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
			address: '203.0.113.42'
		});
		await createSession(database.db, laptop, user.id, opened, {
			userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
			address: '2001:db8:1:2::7'
		});
		await createSession(database.db, tablet, user.id, new Date(opened.getTime() - DAY), {
			address: '192.168.1.20'
		});
		const paulsToken = generateSessionToken();
		await createSession(database.db, paulsToken, other.id);

		// Only the network is stored, never the address.
		const stored = await database.db.select().from(sessions);
		expect(JSON.stringify(stored)).not.toMatch(/203\.0\.113\.42|2001:db8:1:2::7|192\.168\.1\.20/);

		// The laptop is used now: it comes first, marked as the current session.
		await validateSessionToken(database.db, laptop);
		const listed = await sessionsOf(database.db, user.id, sessionIdOf(laptop));
		expect(listed.map((s) => [s.device, s.network, s.current])).toEqual([
			['Firefox sur Linux', 'réseau 2001:db8:1::/48', true],
			['Safari sur iPhone', 'réseau 203.0.113.0/24', false],
			['Appareil inconnu', 'réseau local (192.168.1.0/24)', false]
		]);
		expect(Date.now() - listed[0]!.lastSeenAt.getTime()).toBeLessThan(60_000);

		// Paul cannot end Marie's session with its handle; Marie can, once.
		const phoneHandle = listed[1]!.handle;
		expect(await endSessionByHandle(database.db, other.id, phoneHandle)).toBe(false);
		expect(await endSessionByHandle(database.db, user.id, phoneHandle)).toBe(true);
		expect(await endSessionByHandle(database.db, user.id, phoneHandle)).toBe(false);
		expect((await validateSessionToken(database.db, phone)).session).toBeNull();

		// "All others": the tablet goes, the laptop and Paul's session stay.
		await invalidateOtherSessions(database.db, user.id, sessionIdOf(laptop));
		expect((await sessionsOf(database.db, user.id, sessionIdOf(laptop))).map((s) => s.device)).toEqual([
			'Firefox sur Linux'
		]);
		expect((await validateSessionToken(database.db, paulsToken)).session).not.toBeNull();
	});

	it('writes the last use at most every five minutes, not on every request', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		const token = generateSessionToken();
		const start = new Date();
		await createSession(database.db, token, user.id, start);
		const lastSeen = async () => (await database.db.select().from(sessions))[0]!.lastSeenAt?.getTime();
		await validateSessionToken(database.db, token, start);
		expect(await lastSeen()).toBe(start.getTime());
		await validateSessionToken(database.db, token, new Date(start.getTime() + LAST_SEEN_PRECISION_MS - 1));
		expect(await lastSeen()).toBe(start.getTime());
		const later = new Date(start.getTime() + LAST_SEEN_PRECISION_MS);
		await validateSessionToken(database.db, token, later);
		expect(await lastSeen()).toBe(later.getTime());
	});

	it('purges expired sessions', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		await createSession(database.db, generateSessionToken(), user.id, new Date(Date.now() - 40 * DAY));
		await createSession(database.db, generateSessionToken(), user.id);
		expect(await purgeExpiredSessions(database.db)).toBe(1);
		expect(await database.db.select().from(sessions)).toHaveLength(1);
	});

	it('signs out every other session when the password changes, and keeps the current one', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		const [current, other1, other2] = [
			generateSessionToken(),
			generateSessionToken(),
			generateSessionToken()
		];
		const kept = await createSession(database.db, current, user.id);
		await createSession(database.db, other1, user.id);
		await createSession(database.db, other2, user.id);

		await expect(
			accounts.changePassword(database.db, {
				userId: user.id,
				sessionId: kept.id,
				currentPassword: 'faux faux faux',
				newPassword: 'nouvelle phrase secrète'
			})
		).rejects.toMatchObject({ fieldErrors: { currentPassword: [expect.any(String)] } });
		expect(await database.db.select().from(sessions)).toHaveLength(3);

		await accounts.changePassword(database.db, {
			userId: user.id,
			sessionId: kept.id,
			currentPassword: goodPassword,
			newPassword: 'nouvelle phrase secrète'
		});
		expect((await validateSessionToken(database.db, current)).user?.id).toBe(user.id);
		expect((await validateSessionToken(database.db, other1)).session).toBeNull();
		expect((await validateSessionToken(database.db, other2)).session).toBeNull();
		await expect(signIn(database.db, user.email, goodPassword, '10.0.0.9')).rejects.toBeInstanceOf(
			InvalidCredentialsError
		);
		expect((await signIn(database.db, user.email, 'nouvelle phrase secrète', '10.0.0.9')).id).toBe(user.id);
	});
});

describe(`the admin's users list on ${driverName}`, () => {
	it('searches name or e-mail (wildcards taken literally), filters by role, pages with a total, newest first', async () => {
		const base = Date.parse('2026-01-01T08:00:00Z');
		await database.db.insert(users).values([
			...Array.from({ length: 5 }, (_, i) => ({
				name: `Membre ${i}`,
				email: `membre${i}@exemple.fr`,
				passwordHash: 'x',
				createdAt: new Date(base + i * 60_000)
			})),
			{ name: 'Zoé 100%', email: 'zoe_b@exemple.fr', passwordHash: 'x', createdAt: new Date(base + 9e6) },
			{ name: 'Chef', email: 'chef@atelier.fr', passwordHash: 'x', isAdmin: true, createdAt: new Date(base) }
		]);

		const all = await accounts.listUsers(database.db, {}, 1, 3);
		expect({ total: all.total, pages: all.pages, page: all.page }).toEqual({ total: 7, pages: 3, page: 1 });
		expect(all.users.map((u) => u.name)).toEqual(['Zoé 100%', 'Membre 4', 'Membre 3']);
		// A page past the end is the last one, not an empty list.
		const past = await accounts.listUsers(database.db, {}, 9, 3);
		expect(past.page).toBe(3);
		expect(past.users).toHaveLength(1);

		expect((await accounts.listUsers(database.db, { search: 'MEMBRE' }, 1)).total).toBe(5);
		expect(
			(await accounts.listUsers(database.db, { search: '@atelier' }, 1)).users.map((u) => u.name)
		).toEqual(['Chef']);
		// `%` and `_` are letters here, not LIKE's wildcards.
		expect((await accounts.listUsers(database.db, { search: '100%' }, 1)).total).toBe(1);
		expect((await accounts.listUsers(database.db, { search: '%' }, 1)).total).toBe(1);
		expect((await accounts.listUsers(database.db, { search: 'e_b' }, 1)).total).toBe(1);
		expect((await accounts.listUsers(database.db, { search: 're_' }, 1)).total).toBe(0);

		expect((await accounts.listUsers(database.db, { role: 'admin' }, 1)).users.map((u) => u.name)).toEqual([
			'Chef'
		]);
		expect((await accounts.listUsers(database.db, { role: 'member', search: 'zoé' }, 1)).total).toBe(1);
	});

	it('records the last sign-in when a session opens', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		const [before] = await database.db.select().from(users).where(eq(users.id, user.id));
		expect(before!.lastSignInAt).toBeNull();
		const at = new Date('2026-03-04T05:06:07Z');
		await createSession(database.db, generateSessionToken(), user.id, at);
		const [listed] = (await accounts.listUsers(database.db, {}, 1)).users;
		expect(listed?.lastSignInAt?.toISOString()).toBe(at.toISOString());
	});
});

describe(`first admin on ${driverName}`, () => {
	it('creates exactly one admin out of 20 concurrent setups', async () => {
		const attempts = Array.from({ length: 20 }, (_, i) =>
			accounts.setupFirstAdmin(
				database.db,
				{ name: `Admin ${i}`, email: `admin${i}@exemple.fr`, password: goodPassword },
				`10.2.0.${i}`
			)
		);
		const results = await Promise.allSettled(attempts);
		const created = results.filter((r) => r.status === 'fulfilled');
		const refused = results.filter((r) => r.status === 'rejected');
		expect(created).toHaveLength(1);
		expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof AdminAlreadyExistsError)).toBe(
			true
		);
		const admins = await database.db.select().from(users).where(eq(users.isAdmin, true));
		expect(admins).toHaveLength(1);
		expect(await accounts.adminExists(database.db)).toBe(true);
	});

	it('refuses once an admin exists (409, "déjà configuré")', async () => {
		await accounts.setupFirstAdmin(
			database.db,
			{ name: 'A', email: 'a@exemple.fr', password: goodPassword },
			'10.3.0.1'
		);
		const again = accounts.setupFirstAdmin(
			database.db,
			{ name: 'B', email: 'b@exemple.fr', password: goodPassword },
			'10.3.0.2'
		);
		await expect(again).rejects.toMatchObject({
			status: 409,
			message: expect.stringContaining('déjà configuré')
		});
	});
});
