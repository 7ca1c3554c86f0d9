import { createServer, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, jobRuns, leads, rateLimits } from '../../src/lib/server/db/schema';
import { RateLimitedError } from '../../src/lib/server/errors';
import { issueFormToken } from '../../src/lib/server/leads/form-token';
import * as service from '../../src/lib/server/leads/service';
import { SMTP_TIMEOUTS, smtpTransport } from '../../src/lib/server/mail/transport';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { startSmtp, type RunningSmtp } from '../helpers/smtp';

let database: TestDatabase;
let smtp: RunningSmtp;
const secret = 'x'.repeat(32);

beforeAll(async () => {
	database = await createTestDatabase();
	smtp = await startSmtp();
});
afterAll(async () => {
	await smtp.close();
	await database.dispose();
});
beforeEach(async () => {
	await database.db.delete(leads);
	await database.db.delete(emails);
	await database.db.delete(rateLimits);
	smtp.received.length = 0;
});

const depsFor = (url: string): service.LeadDeps => ({
	db: database.db,
	mail: { db: database.db, transport: smtpTransport(url), from: 'Atelier <no-reply@atelier.test>' },
	adminEmail: 'patron@atelier.test',
	signingSecret: secret,
	inboxUrl: 'http://atelier.test/admin/demandes'
});
const deps = () => depsFor(smtp.url);
/** Nothing listens there: SMTP is "down". */
const downDeps = () => depsFor('smtp://127.0.0.1:1');

/** Submits, then waits for the e-mails sent in the background, so that none arrives during the next test. */
async function submit(...args: Parameters<typeof service.submitLead>): Promise<service.SubmitResult> {
	const result = await service.submitLead(...args);
	await result.notified;
	return result;
}

const devis = {
	name: 'Jean Dupont',
	email: 'Jean@Exemple.fr',
	phone: '06 12 34 56 78',
	city: 'Anse',
	projectType: 'mur',
	message: 'Un mur de clôture de 20 mètres en pierre dorée.\nAccès facile.'
};
const contact = {
	name: 'Zoé <b>Martin</b>',
	email: 'zoe@exemple.fr',
	company: 'Zoé & Fils',
	message: 'Je voudrais un audit de mon site.'
};

describe(`leads on ${driverName} with a real SMTP server`, () => {
	it('stores the request, then notifies the admin (every field, Reply-To the requester) and acknowledges', async () => {
		const result = await submit(deps(), 'devis', devis, '10.0.0.1');
		expect(result).toMatchObject({ duplicate: false, spam: false });
		expect(await result.notified).toBe(true);
		const mails = await smtp.waitFor(2);
		const notification = mails.find((m) => m.envelopeTo.includes('patron@atelier.test'))!;
		expect(notification.parsed.subject).toBe('Demande de devis maçonnerie de Jean Dupont (Anse)');
		expect(notification.parsed.replyTo?.[0]).toMatchObject({
			address: 'jean@exemple.fr',
			name: 'Jean Dupont'
		});
		for (const value of [
			'Jean Dupont',
			'jean@exemple.fr',
			'06 12 34 56 78',
			'Anse',
			'mur',
			'Un mur de clôture de 20 mètres en pierre dorée.'
		]) {
			expect(notification.parsed.text).toContain(value);
			expect(notification.parsed.html).toContain(value);
		}
		const ack = mails.find((m) => m.envelopeTo.includes('jean@exemple.fr'))!;
		expect(ack.parsed.subject).toBe('Nous avons bien reçu votre demande de devis');
		// A fixed text: nothing the requester typed goes back out to the address they gave.
		for (const typed of ['Jean Dupont', 'Un mur de clôture', 'Accès facile', 'Anse', '06 12 34 56 78']) {
			expect(ack.parsed.text).not.toContain(typed);
			expect(ack.parsed.html).not.toContain(typed);
			expect(ack.parsed.subject).not.toContain(typed);
		}
		expect(ack.parsed.text).toContain('48 heures ouvrées');
		const [row] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(row).toMatchObject({ kind: 'devis', email: 'jean@exemple.fr', spam: false, notifyError: null });
		expect(row!.notifiedAt).toBeInstanceOf(Date);
		const logged = await database.db.select().from(emails);
		expect(logged.map((e) => e.status)).toEqual(['sent', 'sent']);
	});

	it('escapes what the requester typed in the HTML e-mails', async () => {
		await (
			await submit(deps(), 'contact', contact, '10.0.0.1')
		).notified;
		const mails = await smtp.waitFor(2);
		for (const mail of mails) {
			expect(mail.parsed.html).not.toContain('<b>Martin</b>');
		}
		expect(mails.find((m) => m.envelopeTo.includes('patron@atelier.test'))!.parsed.html).toContain(
			'Zoé &lt;b&gt;Martin&lt;/b&gt;'
		);
	});

	it('keeps the lead when SMTP is down, records why, and resends once SMTP is back', async () => {
		const result = await submit(downDeps(), 'contact', contact, '10.0.0.2');
		expect(await result.notified).toBe(false);
		const [row] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(row!.notifyError).toMatch(/ECONNREFUSED|connect/i);
		expect(row!.notifiedAt).toBeNull();
		expect(await service.countFailedNotifications(database.db)).toBe(1);
		expect((await database.db.select().from(emails)).every((e) => e.status === 'failed')).toBe(true);

		expect(await service.resendNotification(deps(), result.id)).toBe(true);
		const [mail] = await smtp.waitFor(1);
		expect(mail!.envelopeTo).toEqual(['patron@atelier.test']);
		const [after] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(after).toMatchObject({ notifyError: null });
		expect(await service.countFailedNotifications(database.db)).toBe(0);
	});

	it('stores a honeypot submission as spam and sends nothing; "not spam" sends what was skipped', async () => {
		const result = await submit(
			deps(),
			'contact',
			{ ...contact, website: 'http://spam.example' },
			'10.0.0.3'
		);
		expect(result.spam).toBe(true);
		const [row] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(row).toMatchObject({ spam: true, spamReason: 'champ piège rempli' });
		await new Promise((r) => setTimeout(r, 200));
		expect(smtp.received).toHaveLength(0);
		expect(await database.db.select().from(emails)).toHaveLength(0);

		expect(await service.markNotSpam(deps(), result.id)).toBe(true);
		await smtp.waitFor(2);
		const [after] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(after!.spam).toBe(false);
	});

	it('counts a form sent less than 3 s after it was shown as spam, and a slower one as genuine', async () => {
		const fast = await submit(
			deps(),
			'contact',
			{ ...contact, formToken: issueFormToken(secret) },
			'10.0.0.4'
		);
		expect(fast.spam).toBe(true);
		const slow = await submit(
			deps(),
			'contact',
			{
				...contact,
				message: 'Autre message, tapé sans hâte.',
				formToken: issueFormToken(secret, Date.now() - 5000)
			},
			'10.0.0.4'
		);
		expect(slow.spam).toBe(false);
		const forged = await submit(
			deps(),
			'contact',
			{ ...contact, message: 'Encore un autre message.', formToken: '123.abc' },
			'10.0.0.4'
		);
		expect(forged.spam).toBe(true);
	});

	it('returns the first id for the same e-mail and message within a minute, and sends nothing more', async () => {
		const attempts = await Promise.all([1, 2, 3].map(() => submit(deps(), 'devis', devis, '10.0.0.5')));
		const ids = new Set(attempts.map((a) => a.id));
		expect(ids.size).toBe(1);
		expect(attempts.filter((a) => a.duplicate)).toHaveLength(2);
		expect(await database.db.select().from(leads)).toHaveLength(1);
		expect(await Promise.all(attempts.map((a) => a.notified))).toEqual(attempts.map((a) => !a.duplicate));
		expect(smtp.received).toHaveLength(2);
	});

	it('rate-limits per client address (429 with a retry delay)', async () => {
		// Each with its own form token, as from the pages: the general limit, not the one for token-less clients.
		const token = (i: number) => issueFormToken(secret, Date.now() - 5000 - i);
		for (let i = 0; i < service.submitLimit.max; i++) {
			const result = await submit(
				downDeps(),
				'contact',
				{ ...contact, message: `Message numéro ${i} assez long.`, formToken: token(i) },
				'10.0.0.6'
			);
			expect(result.spam).toBe(false);
		}
		const over = submit(
			downDeps(),
			'contact',
			{ ...contact, message: 'Un de trop, assez long.', formToken: token(99) },
			'10.0.0.6'
		);
		await expect(over).rejects.toBeInstanceOf(RateLimitedError);
		expect(await database.db.select().from(leads)).toHaveLength(service.submitLimit.max);
		await expect(
			submit(downDeps(), 'contact', { ...contact, message: 'Autre adresse, même contenu.' }, '10.0.0.7')
		).resolves.toBeTruthy();
	});

	it('filters, marks handled, exports CSV with defused formulas, and deletes for good', async () => {
		const a = await submit(
			downDeps(),
			'contact',
			{ ...contact, message: '=HYPERLINK("http://evil.example")' },
			'10.0.1.1'
		);
		const b = await submit(downDeps(), 'devis', devis, '10.0.1.2');
		await submit(
			downDeps(),
			'contact',
			{ ...contact, message: 'pas humain du tout', website: 'x' },
			'10.0.1.3'
		);
		expect((await service.listLeads(database.db, { spam: false })).map((l) => l.id).sort()).toEqual(
			[a.id, b.id].sort()
		);
		expect((await service.listLeads(database.db, { kind: 'devis' })).map((l) => l.id)).toEqual([b.id]);
		await service.setHandled(database.db, a.id, true);
		expect((await service.listLeads(database.db, { handled: true })).map((l) => l.id)).toEqual([a.id]);
		expect(await service.listLeads(database.db, { from: new Date(Date.now() + 60_000) })).toHaveLength(0);

		const csv = await service.exportCsv(database.db, { spam: false });
		expect(csv.startsWith('\uFEFFid;type;')).toBe(true);
		expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
		expect(csv.split('\r\n').filter(Boolean)).toHaveLength(3);

		await service.deleteLead(database.db, a.id);
		expect(await database.db.select().from(leads).where(eq(leads.id, a.id))).toHaveLength(0);
		await expect(service.deleteLead(database.db, a.id)).rejects.toMatchObject({ status: 404 });
	});

	it('deletes leads past the retention period and records when it ran', async () => {
		const old = await submit(
			downDeps(),
			'contact',
			{ ...contact, message: 'Une vieille demande.' },
			'10.0.2.1'
		);
		const recent = await submit(
			downDeps(),
			'contact',
			{ ...contact, message: 'Une demande récente.' },
			'10.0.2.1'
		);
		await database.db
			.update(leads)
			.set({ createdAt: new Date(Date.now() - 1100 * 24 * 3600 * 1000) })
			.where(eq(leads.id, old.id));
		expect(await service.purgeOldLeads(database.db, 1095)).toBe(1);
		expect((await database.db.select().from(leads)).map((l) => l.id)).toEqual([recent.id]);
		const run = await service.lastRetentionRun(database.db);
		expect(run?.detail).toBe('1 supprimée(s)');
		expect(await database.db.select().from(jobRuns)).toHaveLength(1);
	});
});

describe(`e-mail headers on ${driverName}: a name is a display name, never another address`, () => {
	const hostileNames = [
		'"Bob, evil@x.com" <evil2@x.com>',
		'a@b.c, d@e.f',
		'Eve <evil@x>',
		'Mallory\r\nBcc: evil@x.com\r\nReply-To: evil@x.com',
		'=?utf-8?Q?evil=40x=2Ecom?= <evil@x.com>, ; : \\ "'
	];
	it.each(hostileNames)('%j adds no recipient and no Reply-To address', async (name) => {
		const result = await submit(
			deps(),
			'contact',
			{ ...contact, name, email: 'victime@exemple.fr', message: `Nom hostile : ${name}` },
			'10.0.3.1'
		);
		expect(await result.notified).toBe(true);
		const mails = await smtp.waitFor(2);
		const notification = mails.find((m) => m.parsed.subject?.startsWith('Demande d’audit'))!;
		const ack = mails.find((m) => m.parsed.subject === 'Nous avons bien reçu votre demande')!;

		expect(notification.envelopeTo).toEqual(['patron@atelier.test']);
		expect(notification.parsed.to?.map((a) => a.address)).toEqual(['patron@atelier.test']);
		expect(notification.parsed.replyTo?.map((a) => a.address)).toEqual(['victime@exemple.fr']);
		expect(notification.parsed.cc ?? []).toEqual([]);
		expect(notification.parsed.bcc ?? []).toEqual([]);

		expect(ack.envelopeTo).toEqual(['victime@exemple.fr']);
		expect(ack.parsed.to?.map((a) => a.address)).toEqual(['victime@exemple.fr']);
		expect(ack.parsed.replyTo ?? []).toEqual([]);
		expect(ack.parsed.cc ?? []).toEqual([]);
		// The acknowledgement carries nothing the requester typed.
		for (const part of [
			ack.parsed.text,
			ack.parsed.html,
			ack.parsed.subject,
			JSON.stringify(ack.parsed.to)
		]) {
			expect(part).not.toContain('evil');
			expect(part).not.toContain('Nom hostile');
		}
		expect(mails).toHaveLength(2);
	});
});

describe(`an SMTP server that accepts and never answers, on ${driverName}`, () => {
	it('does not hold the request: the lead is stored at once, the failure recorded later', async () => {
		const sockets = new Set<Socket>();
		const silent = createServer((socket) => {
			sockets.add(socket);
			socket.on('error', () => {});
		});
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		try {
			const port = (silent.address() as { port: number }).port;
			let settled = false;
			const result = await service.submitLead(
				depsFor(`smtp://127.0.0.1:${port}`),
				'contact',
				contact,
				'10.0.4.1'
			);
			void result.notified.then(() => (settled = true));
			// Stored and answered while the e-mail is still waiting for a greeting that never comes.
			await new Promise((r) => setImmediate(r));
			expect(settled).toBe(false);
			const [stored] = await database.db.select().from(leads).where(eq(leads.id, result.id));
			expect(stored).toMatchObject({ spam: false, notifyError: null, notifiedAt: null });

			const started = Date.now();
			expect(await result.notified).toBe(false);
			// Given up by the transport's own time limits, not by some far-off default.
			expect(Date.now() - started).toBeLessThan(SMTP_TIMEOUTS.greetingMs + SMTP_TIMEOUTS.socketMs);
			const [after] = await database.db.select().from(leads).where(eq(leads.id, result.id));
			expect(after!.notifyError).toMatch(/greeting|timeout/i);
			expect(after!.notifiedAt).toBeNull();
		} finally {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => silent.close(resolve));
		}
	});
});

describe(`the time trap's token is good for one request, on ${driverName}`, () => {
	const typedSlowly = () => issueFormToken(secret, Date.now() - 5000);

	it('a second request with the same token is kept as spam and e-mails no one', async () => {
		const token = typedSlowly();
		const first = await submit(deps(), 'contact', { ...contact, formToken: token }, '10.0.5.1');
		expect(first.spam).toBe(false);
		await smtp.waitFor(2);
		const again = await submit(
			deps(),
			'contact',
			{ ...contact, message: 'Une autre demande, même jeton.', formToken: token },
			'10.0.5.2'
		);
		expect(again).toMatchObject({ spam: true, duplicate: false });
		expect(await again.notified).toBe(false);
		const [row] = await database.db.select().from(leads).where(eq(leads.id, again.id));
		expect(row).toMatchObject({ spam: true, spamReason: 'jeton de formulaire déjà utilisé' });
		expect(smtp.received).toHaveLength(2);
		// The same request sent twice (a double click) is still the duplicate it was, not spam.
		const double = await submit(deps(), 'contact', { ...contact, formToken: token }, '10.0.5.1');
		expect(double).toMatchObject({ id: first.id, duplicate: true, spam: false });
	});

	it('simultaneous requests with one token: exactly one gets through', async () => {
		const token = typedSlowly();
		const results = await Promise.all(
			[0, 1, 2, 3, 4].map((i) =>
				submit(
					depsFor('smtp://127.0.0.1:1'),
					'contact',
					{ ...contact, email: `n${i}@exemple.fr`, message: `Demande simultanée ${i}.`, formToken: token },
					`10.0.5.${10 + i}`
				)
			)
		);
		expect(results.filter((r) => !r.spam)).toHaveLength(1);
		const rows = await database.db.select().from(leads);
		expect(rows.filter((r) => r.spamReason === 'jeton de formulaire déjà utilisé')).toHaveLength(4);
	});

	it('a page form without its token is spam; an API client without one meets a tighter limit', async () => {
		const page = await submit(deps(), 'contact', contact, '10.0.6.1', 'page');
		const [row] = await database.db.select().from(leads).where(eq(leads.id, page.id));
		expect(row).toMatchObject({ spam: true, spamReason: 'jeton de formulaire absent' });

		for (let i = 0; i < service.untokenedLimit.max; i++) {
			const ok = await submit(
				downDeps(),
				'contact',
				{ ...contact, message: `Sans jeton ${i}.` },
				'10.0.6.2',
				'api'
			);
			expect(ok.spam).toBe(false);
		}
		await expect(
			submit(downDeps(), 'contact', { ...contact, message: 'Sans jeton, de trop.' }, '10.0.6.2', 'api')
		).rejects.toBeInstanceOf(RateLimitedError);
		// The same address with a token still has the general limit's room.
		const tokened = await submit(
			downDeps(),
			'contact',
			{ ...contact, message: 'Avec un jeton.', formToken: typedSlowly() },
			'10.0.6.2',
			'api'
		);
		expect(tokened.spam).toBe(false);
		expect(service.untokenedLimit.max).toBeLessThan(service.submitLimit.max);
	});
});
