import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
	AdminAlreadyExistsError,
	InvalidCredentialsError,
	accountSlowDown,
	limits
} from '../../src/lib/server/auth/accounts';
import * as accounts from '../../src/lib/server/auth/accounts';
import {
	SESSION_LIFETIME_MS,
	createSession,
	generateSessionToken,
	purgeExpiredSessions,
	sessionIdOf,
	validateSessionToken
} from '../../src/lib/server/auth/session';
import { rateLimits, sessions, users } from '../../src/lib/server/db/schema';
import { RateLimitedError, ValidationError } from '../../src/lib/server/errors';
import { createTestDatabase, driverName, serverUrl, type TestDatabase } from '../helpers/database';

// Counts the real argon2 verifications (the expensive step the slow-down exists to ration); each still runs.
const argon2 = vi.hoisted(() => ({ verifications: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
	const actual = await importOriginal<typeof import('@node-rs/argon2')>();
	return {
		...actual,
		verify: (...args: Parameters<typeof actual.verify>) => {
			argon2.verifications++;
			return actual.verify(...args);
		}
	};
});

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
		const user = await accounts.signIn(database.db, '  MARIE@exemple.FR ', goodPassword, '10.0.0.2');
		expect(user.email).toBe('marie@exemple.fr');
		const wrong = accounts.signIn(database.db, 'marie@exemple.fr', 'pas le bon mot', '10.0.0.2');
		await expect(wrong).rejects.toBeInstanceOf(InvalidCredentialsError);
		const unknown = accounts.signIn(database.db, 'personne@exemple.fr', goodPassword, '10.0.0.2');
		await expect(unknown).rejects.toThrow(new InvalidCredentialsError().message);
	});

	it('spends one hash for an unknown e-mail, as for a wrong password (no timing oracle)', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		const time = async (email: string) => {
			const start = performance.now();
			await accounts
				.signIn(database.db, email, 'mauvais mot de passe', `10.1.0.${Math.random()}`)
				.catch(() => {});
			return performance.now() - start;
		};
		await time('personne@exemple.fr'); // warm-up: the dummy hash is made once
		const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
		const known: number[] = [];
		const unknown: number[] = [];
		for (let i = 0; i < 5; i++) {
			known.push(await time('marie@exemple.fr'));
			unknown.push(await time(`personne${i}@exemple.fr`));
		}
		const ratio = median(unknown) / median(known);
		expect(ratio).toBeGreaterThan(0.5);
		expect(ratio).toBeLessThan(2);
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
		await expect(accounts.signIn(database.db, user.email, goodPassword, '10.0.0.9')).rejects.toBeInstanceOf(
			InvalidCredentialsError
		);
		expect((await accounts.signIn(database.db, user.email, 'nouvelle phrase secrète', '10.0.0.9')).id).toBe(
			user.id
		);
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

describe(`the per-account slow-down on ${driverName}`, () => {
	const MARIE = 'marie@exemple.fr';

	/** Lets `seconds` pass for an account's slow-down, as if its attempts had been made that much earlier. */
	const elapse = (email: string, seconds: number) =>
		database.db
			.update(rateLimits)
			.set({ resetAt: sql`${rateLimits.resetAt} - make_interval(secs => ${seconds})` })
			.where(eq(rateLimits.key, `${accountSlowDown.name}:${email}`));

	/** 'checked' when a password was checked and was wrong, the RateLimitedError when the attempt was slowed down. */
	const attempt = (email: string, password: string, address: string) =>
		accounts.signIn(database.db, email, password, address).then(
			() => 'signed in' as const,
			(error: unknown) => {
				if (error instanceof InvalidCredentialsError) return 'checked' as const;
				if (error instanceof RateLimitedError) return error;
				throw error;
			}
		);

	it('lets the owner in from another address after 30 failures from one address, after at most a minute', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		let failures = 0;
		while (failures < 30) {
			const outcome = await attempt(MARIE, `mauvais ${failures}`, '10.4.0.1');
			if (outcome === 'checked') failures++;
			else {
				expect(outcome).toBeInstanceOf(RateLimitedError);
				const wait = (outcome as RateLimitedError).retryAfterSeconds;
				expect(wait).toBeGreaterThan(0);
				expect(wait).toBeLessThanOrEqual(60);
				await elapse(MARIE, wait);
			}
		}
		// The stranger's address is over its own limit, whatever the account.
		await expect(accounts.signIn(database.db, 'autre@exemple.fr', 'x', '10.4.0.1')).rejects.toBeInstanceOf(
			RateLimitedError
		);

		// Right after the stranger's last failure, the owner is slowed down, not locked out...
		const slowed = await attempt(MARIE, goodPassword, '10.4.1.1');
		expect(slowed).toBeInstanceOf(RateLimitedError);
		const wait = (slowed as RateLimitedError).retryAfterSeconds;
		expect(wait).toBeGreaterThan(0);
		expect(wait).toBeLessThanOrEqual(accountSlowDown.maxDelaySeconds);
		expect(accountSlowDown.maxDelaySeconds).toBeLessThanOrEqual(60);
		expect((slowed as RateLimitedError).extra.headers?.['retry-after']).toBe(String(wait));
		// ...and once the announced wait is over, the right password works.
		await elapse(MARIE, wait);
		expect((await accounts.signIn(database.db, MARIE, goodPassword, '10.4.1.1')).email).toBe(MARIE);
	});

	it('gives a guesser spread over 50 addresses at most ~70 password checks an hour', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		let checks = 0;
		let simulated = 0;
		for (let i = 0; simulated < 3600; i++) {
			const outcome = await attempt(MARIE, `essai ${i}`, `10.9.${i % 50}.1`);
			if (outcome === 'checked') checks++;
			else {
				expect(outcome).toBeInstanceOf(RateLimitedError);
				const wait = (outcome as RateLimitedError).retryAfterSeconds;
				expect(wait).toBeLessThanOrEqual(accountSlowDown.maxDelaySeconds);
				await elapse(MARIE, wait);
				simulated += wait;
			}
		}
		// 5 at once, 6 more while the wait grows to a minute (63 s), then one a minute: 5 + 6 + 58 = 69.
		expect(checks).toBeLessThanOrEqual(70);
		expect(checks).toBeGreaterThan(accountSlowDown.free); // slowed, not locked
	});

	it('checks at most `free` passwords out of 20 simultaneous wrong ones for one account', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		const before = argon2.verifications;
		const outcomes = await Promise.all(
			Array.from({ length: 20 }, (_, i) => attempt(MARIE, `faux ${i}`, `10.10.${i}.1`))
		);
		const verified = argon2.verifications - before;
		expect(verified).toBeGreaterThanOrEqual(1);
		expect(verified).toBeLessThanOrEqual(accountSlowDown.free);
		expect(outcomes.filter((o) => o === 'checked')).toHaveLength(verified);
		for (const outcome of outcomes.filter((o) => o !== 'checked')) {
			expect(outcome).toBeInstanceOf(RateLimitedError);
			expect((outcome as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(60);
		}
		const [row] = await database.db
			.select()
			.from(rateLimits)
			.where(eq(rateLimits.key, `${accountSlowDown.name}:${MARIE}`));
		expect(row?.count).toBe(verified);
	});

	/**
	 * Makes `n` wrong password checks through `tryOnce`, letting the announced waits pass in between. Afterwards
	 * the next attempt must wait a good while (32 s after 10 checks), however slow this machine is.
	 */
	const spend = async (email: string, n: number, tryOnce: () => Promise<'checked' | RateLimitedError>) => {
		for (let checks = 0; checks < n;) {
			const outcome = await tryOnce();
			if (outcome === 'checked') checks++;
			else await elapse(email, outcome.retryAfterSeconds);
		}
	};
	const wrongSignIns = (email: string, address: string) => () =>
		attempt(email, 'mauvais', address) as Promise<'checked' | RateLimitedError>;

	it('answers an unknown e-mail exactly as a known one (no enumeration)', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		await spend(MARIE, 10, wrongSignIns(MARIE, '10.11.0.1'));
		await spend('personne@exemple.fr', 10, wrongSignIns('personne@exemple.fr', '10.11.0.2'));
		const known = await attempt(MARIE, 'mauvais', '10.11.0.1');
		const unknown = await attempt('personne@exemple.fr', 'mauvais', '10.11.0.2');
		expect(known).toBeInstanceOf(RateLimitedError);
		expect(unknown).toBeInstanceOf(RateLimitedError);
		expect((unknown as RateLimitedError).message).toBe((known as RateLimitedError).message);
		for (const outcome of [known, unknown])
			expect((outcome as RateLimitedError).retryAfterSeconds).toBeGreaterThan(10);
	});

	it('forgets the failures after a successful sign-in', async () => {
		await accounts.register(database.db, newMember(), '10.0.0.1');
		await spend(MARIE, 10, wrongSignIns(MARIE, '10.6.0.1'));
		const slowed = await attempt(MARIE, goodPassword, '10.6.0.1');
		expect(slowed).toBeInstanceOf(RateLimitedError);
		await elapse(MARIE, (slowed as RateLimitedError).retryAfterSeconds);
		expect(await attempt(MARIE, goodPassword, '10.6.0.1')).toBe('signed in');
		// As many attempts back to back as at first.
		for (let i = 0; i < accountSlowDown.free; i++)
			expect(await attempt(MARIE, 'mauvais', '10.6.0.2')).toBe('checked');
	});

	it('slows down checks of the current password on the profile page the same way', async () => {
		const user = await accounts.register(database.db, newMember(), '10.0.0.1');
		const kept = await createSession(database.db, generateSessionToken(), user.id);
		const change = (currentPassword: string) =>
			accounts.changePassword(database.db, {
				userId: user.id,
				sessionId: kept.id,
				currentPassword,
				newPassword: 'nouvelle phrase secrète'
			});
		await spend(MARIE, 10, () =>
			change('faux faux faux').then(
				() => expect.unreachable(),
				(error: unknown) => {
					if (error instanceof ValidationError) return 'checked' as const;
					if (error instanceof RateLimitedError) return error;
					throw error;
				}
			)
		);
		await expect(change(goodPassword)).rejects.toBeInstanceOf(RateLimitedError);
		await expect(attempt(MARIE, goodPassword, '10.12.0.1')).resolves.toBeInstanceOf(RateLimitedError);
	});
});

describe(`rate limits on ${driverName}`, () => {
	it('refuses an address after 30 failures, whatever the accounts', async () => {
		for (let i = 0; i < limits.signInAddress.max; i++) {
			await expect(
				accounts.signIn(database.db, `x${i}@exemple.fr`, 'mauvais', '10.5.0.1')
			).rejects.toBeInstanceOf(InvalidCredentialsError);
		}
		await expect(accounts.signIn(database.db, 'y@exemple.fr', 'mauvais', '10.5.0.1')).rejects.toBeInstanceOf(
			RateLimitedError
		);
		await expect(accounts.signIn(database.db, 'y@exemple.fr', 'mauvais', '10.5.0.2')).rejects.toBeInstanceOf(
			InvalidCredentialsError
		);
	});

	it('limits registrations and setups per address', async () => {
		for (let i = 0; i < limits.registerAddress.max; i++) {
			await accounts
				.register(database.db, { ...newMember(`r${i}@exemple.fr`), password: 'x' }, '10.7.0.1')
				.catch(() => {});
		}
		await expect(
			accounts.register(database.db, newMember('last@exemple.fr'), '10.7.0.1')
		).rejects.toBeInstanceOf(RateLimitedError);
		for (let i = 0; i < limits.setupAddress.max; i++) {
			await accounts
				.setupFirstAdmin(database.db, { name: 'S', email: `s${i}@exemple.fr`, password: 'x' }, '10.7.0.2')
				.catch(() => {});
		}
		await expect(
			accounts.setupFirstAdmin(
				database.db,
				{ name: 'S', email: 's@exemple.fr', password: goodPassword },
				'10.7.0.2'
			)
		).rejects.toBeInstanceOf(RateLimitedError);
		expect(await accounts.adminExists(database.db)).toBe(false);
	});

	// PGlite belongs to one process: only a server has several instances to share counters between.
	it.runIf(serverUrl)('shares counters between instances through the database', async () => {
		const { openDatabase } = await import('../../src/lib/server/db');
		const second = openDatabase({ url: database.url!, max: 2 });
		try {
			for (let i = 0; i < limits.signInAddress.max; i++) {
				const target = i % 2 ? database.db : second.db;
				await accounts.signIn(target, `z${i}@exemple.fr`, 'mauvais', '10.8.0.1').catch(() => {});
			}
			await expect(accounts.signIn(second.db, 'z@exemple.fr', 'mauvais', '10.8.0.1')).rejects.toBeInstanceOf(
				RateLimitedError
			);
		} finally {
			await second.close();
		}
	});
});
