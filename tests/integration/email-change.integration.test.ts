// Changing an account's e-mail address: proven by the password, confirmed from the new address, told to the old.
import { signIn } from '../helpers/sign-in';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accounts from '../helpers/accounts';
import { issueDeviceLink, spendDeviceLink } from '../../src/lib/server/auth/sign-in';
import { emailChanges, users } from '../../src/lib/server/db/schema';
import { ValidationError } from '../../src/lib/server/errors';
import { settleBackgroundTasks } from '../../src/lib/server/lifecycle';
import { smtpTransport } from '../../src/lib/server/mail/transport';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { startSmtp, type RunningSmtp } from '../helpers/smtp';

let database: TestDatabase;
let smtp: RunningSmtp;
beforeAll(async () => {
	database = await createTestDatabase();
	smtp = await startSmtp();
});
afterAll(async () => {
	await database.dispose();
	await smtp.close();
});

const password = 'une phrase de passe solide';
const deps = () => ({
	db: database.db,
	mail: { db: database.db, transport: smtpTransport(smtp.url), from: 'Atelier <no-reply@atelier.test>' },
	origin: new URL('http://atelier.test')
});
const circumstances = { at: new Date(), device: 'Firefox sur Linux', network: null };
const tokenOf = (link: string) => link.split('/').at(-1)!;

describe(`changing the e-mail address on ${driverName}`, () => {
	it('sends a link to the new address; following it changes the address and tells the old one', async () => {
		const user = await accounts.register(
			database.db,
			{ name: 'Anne', email: 'anne@exemple.fr', password },
			'10.0.1.1'
		);
		const other = await accounts.register(
			database.db,
			{ name: 'Paul', email: 'paul@exemple.fr', password },
			'10.0.1.2'
		);

		// The password proves it; the address must be free and new.
		await expect(
			accounts.requestEmailChange(deps(), {
				sessionId: 'session-anne',
				userId: user.id,
				newEmail: 'anne@nouveau.fr',
				password: 'mauvais'
			})
		).rejects.toBeInstanceOf(ValidationError);
		await expect(
			accounts.requestEmailChange(deps(), {
				sessionId: 'session-anne',
				userId: user.id,
				newEmail: 'PAUL@exemple.fr',
				password
			})
		).rejects.toMatchObject({ fieldErrors: { newEmail: [expect.stringContaining('autre compte')] } });

		const before = smtp.received.length;
		const link = await accounts.requestEmailChange(deps(), {
			sessionId: 'session-anne',
			userId: user.id,
			newEmail: 'Anne@Nouveau.fr',
			password
		});
		await smtp.waitFor(before + 1);
		const sent = smtp.received.at(-1)!;
		expect(sent.envelopeTo).toEqual(['anne@nouveau.fr']);
		expect(sent.parsed.text).toContain(link);
		// Only the token's hash is kept, and nothing changed yet.
		const [row] = await database.db.select().from(emailChanges).where(eq(emailChanges.userId, user.id));
		expect(row!.hash).not.toContain(tokenOf(link));
		expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(
			'anne@exemple.fr'
		);

		// Someone else's session cannot use it.
		expect((await accounts.emailChangeState(database.db, tokenOf(link), other.id)).state).toBe('unknown');
		await expect(
			accounts.confirmEmailChange(deps(), tokenOf(link), other.id, circumstances)
		).rejects.toMatchObject({
			status: 410
		});

		expect(await accounts.emailChangeState(database.db, tokenOf(link), user.id)).toEqual({
			state: 'valid',
			newEmail: 'anne@nouveau.fr'
		});
		const afterConfirm = smtp.received.length;
		await accounts.confirmEmailChange(deps(), tokenOf(link), user.id, circumstances);
		await settleBackgroundTasks(15_000);
		expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(
			'anne@nouveau.fr'
		);
		await smtp.waitFor(afterConfirm + 1);
		const told = smtp.received.at(-1)!;
		expect(told.envelopeTo).toEqual(['anne@exemple.fr']);
		expect(told.parsed.subject).toBe('Votre adresse e-mail a changé');

		// One use only; and the new address signs in.
		expect((await accounts.emailChangeState(database.db, tokenOf(link), user.id)).state).toBe('used');
		await expect(
			accounts.confirmEmailChange(deps(), tokenOf(link), user.id, circumstances)
		).rejects.toMatchObject({
			status: 410
		});
		expect((await signIn(database.db, 'anne@nouveau.fr', password, '10.0.1.3')).id).toBe(user.id);
	});

	it('an expired link changes nothing', async () => {
		const user = await accounts.register(
			database.db,
			{ name: 'Léo', email: 'leo@exemple.fr', password },
			'10.0.1.4'
		);
		const link = await accounts.requestEmailChange(
			deps(),
			{ userId: user.id, sessionId: 'session-leo', newEmail: 'leo@nouveau.fr', password },
			Date.now() - accounts.EMAIL_CHANGE_LIFETIME_MS - 1000
		);
		expect((await accounts.emailChangeState(database.db, tokenOf(link), user.id)).state).toBe('expired');
		await expect(
			accounts.confirmEmailChange(deps(), tokenOf(link), user.id, circumstances)
		).rejects.toMatchObject({
			status: 410
		});
		expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(
			'leo@exemple.fr'
		);
	});

	it('voids the device links sent before it: followed afterwards, one makes no known browser', async () => {
		const user = await accounts.register(
			database.db,
			{ name: 'Iris', email: 'iris@exemple.fr', password },
			'10.0.1.5'
		);
		const sent = await issueDeviceLink(database.db, user.email, '10.0.1.5', deps().origin);
		const link = await accounts.requestEmailChange(deps(), {
			userId: user.id,
			sessionId: 'session-iris',
			newEmail: 'iris@nouveau.fr',
			password
		});
		await accounts.confirmEmailChange(deps(), tokenOf(link), user.id, circumstances);
		await settleBackgroundTasks(15_000);
		expect(await spendDeviceLink(database.db, tokenOf(sent!.link))).toBeNull();
	});
});
