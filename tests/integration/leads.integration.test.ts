import { desc, eq, sql } from 'drizzle-orm';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, jobRuns, leads, rateLimits } from '../../src/lib/server/db/schema';
import { RateLimitedError } from '../../src/lib/server/errors';
import { issueFormToken } from '../../src/lib/server/abuse/form-token';
import { settleBackgroundTasks } from '../../src/lib/server/lifecycle';
import * as service from '../../src/lib/server/leads/service';
import { seedFields } from '../../src/content/agency/seed';
import { demoSite } from '../../src/lib/content/pages';
import { agencySender, demoSender } from '../../src/lib/server/mail/sender';
import { smtpTransport } from '../../src/lib/server/mail/transport';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { startSmtp, type RunningSmtp } from '../helpers/smtp';

/** Who acts in the admin's actions below (the audit trail records it; no account needed). */
const ADMIN_ACTOR = { id: '00000000-0000-4000-8000-00000000000a', email: 'admin@atelier.test' };

let database: TestDatabase;
let smtp: RunningSmtp;
const secret = 'x'.repeat(32);

beforeAll(async () => {
	database = await createTestDatabase();
	smtp = await startSmtp();
});
afterAll(async () => {
	await settleBackgroundTasks(15_000);
	await smtp.close();
	await database.dispose();
});
beforeEach(async () => {
	// E-mails go out after submitLead answers: let the last test's finish before clearing the tables.
	await settleBackgroundTasks(15_000);
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
	inboxUrl: 'http://atelier.test/admin/demandes',
	senderOf: (kind) =>
		kind === 'devis' ? demoSender(demoSite('macon', seedFields().macon, '')) : agencySender
});
const deps = () => depsFor(smtp.url);
let tokens = 0;
/** A fresh form token issued a few seconds ago, as a person filling the page would send. */
const aged = () => issueFormToken(secret, Date.now() - 5_000 - tokens++);
/** Nothing listens there: SMTP is "down". */
const downDeps = () => depsFor('smtp://127.0.0.1:1');

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
		const result = await service.submitLead(deps(), 'devis', devis, '10.0.0.1');
		expect(result).toMatchObject({ duplicate: false, spam: false });
		expect(await result.delivery).toBe(true);
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
		// The quote form is the maçon demo's: its reply is signed by the demo business, which says it is one.
		expect(ack.parsed.text).toContain('L’équipe Maçonnerie Girard & Fils');
		expect(ack.parsed.text).toContain('04 74 00 12 34');
		expect(ack.parsed.text).toContain('entreprise fictive');
		expect(ack.parsed.text).not.toContain('L’équipe Atelier');
		// An automatic answer to what they sent (RFC 3834): their vacation responder must not answer it back.
		const autoSubmitted = (m: typeof ack) => m.parsed.headers.find((h) => h.key === 'auto-submitted')?.value;
		expect(autoSubmitted(ack)).toBe('auto-replied');
		expect(autoSubmitted(notification)).toBeUndefined();
		const [row] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(row).toMatchObject({ kind: 'devis', email: 'jean@exemple.fr', spam: false, notifyError: null });
		expect(row!.notifiedAt).toBeInstanceOf(Date);
		const logged = await database.db.select().from(emails);
		expect(logged.map((e) => e.status)).toEqual(['sent', 'sent']);
	});

	it('escapes what the requester typed in the HTML e-mails', async () => {
		await service.submitLead(deps(), 'contact', contact, '10.0.0.1');
		const mails = await smtp.waitFor(2);
		for (const mail of mails) {
			expect(mail.parsed.html).not.toContain('<b>Martin</b>');
		}
		expect(mails.find((m) => m.envelopeTo.includes('patron@atelier.test'))!.parsed.html).toContain(
			// Svelte escapes `<` and `&` in text, which is what makes markup inert.
			'Zoé &lt;b>Martin&lt;/b>'
		);
	});

	it('answers at once when the SMTP server accepts and never speaks, and records the failure later', async () => {
		const sockets: Socket[] = [];
		const silent = createTcpServer((socket) => void sockets.push(socket));
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = silent.address() as { port: number };
			const started = Date.now();
			const result = await service.submitLead(
				depsFor(`smtp://127.0.0.1:${port}`),
				'contact',
				contact,
				'10.0.0.9'
			);
			expect(Date.now() - started).toBeLessThan(2_000);
			const [stored] = await database.db.select().from(leads).where(eq(leads.id, result.id));
			expect(stored).toMatchObject({ email: 'zoe@exemple.fr', notifiedAt: null });
			expect(await result.delivery).toBe(false);
			expect(Date.now() - started).toBeLessThan(15_000);
			const [after] = await database.db.select().from(leads).where(eq(leads.id, result.id));
			expect(after!.notifyError).toMatch(/timeout|greeting/i);
		} finally {
			for (const socket of sockets) socket.destroy();
			silent.close();
		}
	});

	it('builds address headers from structured values: a hostile name adds no recipient and no Reply-To', async () => {
		for (const name of [
			'Bob, evil@attacker.example',
			'"Eve" <evil@attacker.example>',
			'a@attacker.example, b@attacker.example',
			'Mallory =?utf-8?q?evil=40attacker.example?='
		]) {
			smtp.received.length = 0;
			const result = await service.submitLead(
				deps(),
				'contact',
				{ ...contact, name, message: `Message de ${name} pour un audit.`, formToken: aged() },
				'10.0.3.1'
			);
			expect(await result.delivery).toBe(true);
			const mails = await smtp.waitFor(2);
			const recipients = mails.flatMap((m) => m.envelopeTo).sort();
			expect(recipients).toEqual(['patron@atelier.test', 'zoe@exemple.fr']);
			const notification = mails.find((m) => m.envelopeTo.includes('patron@atelier.test'))!;
			expect(notification.parsed.replyTo).toHaveLength(1);
			expect(notification.parsed.replyTo![0]!.address).toBe('zoe@exemple.fr');
			expect(notification.parsed.to).toHaveLength(1);
			expect(notification.parsed.cc ?? []).toHaveLength(0);
			const ack = mails.find((m) => m.envelopeTo.includes('zoe@exemple.fr'))!;
			// The acknowledgement carries none of the requester's own words.
			expect(ack.parsed.text).not.toContain('attacker');
			expect(ack.parsed.html).not.toContain('attacker');
			expect(ack.parsed.text).not.toContain('pour un audit');
		}
	});

	it('keeps the lead when SMTP is down, records why, and resends once SMTP is back', async () => {
		const result = await service.submitLead(downDeps(), 'contact', contact, '10.0.0.2');
		expect(await result.delivery).toBe(false);
		const [row] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(row!.notifyError).toMatch(/ECONNREFUSED|connect/i);
		expect(row!.notifiedAt).toBeNull();
		expect(await service.countFailedNotifications(database.db)).toBe(1);
		// The dashboard's count links to exactly these: the inbox filtered on a failed notification.
		const failed = await service.inboxPage(database.db, 'toutes', { notifyFailed: true }, null);
		expect(failed.leads.map((l) => l.id)).toEqual([result.id]);
		expect((await database.db.select().from(emails)).every((e) => e.status === 'failed')).toBe(true);

		expect(await service.resendNotification(deps(), result.id, ADMIN_ACTOR)).toBe(true);
		const [mail] = await smtp.waitFor(1);
		expect(mail!.envelopeTo).toEqual(['patron@atelier.test']);
		const [after] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(after).toMatchObject({ notifyError: null });
		expect(await service.countFailedNotifications(database.db)).toBe(0);
		expect((await service.inboxPage(database.db, 'toutes', { notifyFailed: true }, null)).total).toBe(0);
	});

	it('stores a honeypot submission as spam and sends nothing; "not spam" sends what was skipped', async () => {
		const result = await service.submitLead(
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

		expect(await service.markNotSpam(deps(), result.id, ADMIN_ACTOR)).toBe(true);
		await smtp.waitFor(2);
		const [after] = await database.db.select().from(leads).where(eq(leads.id, result.id));
		expect(after!.spam).toBe(false);
	});

	it('counts a form sent less than 3 s after it was shown as spam, and a slower one as genuine', async () => {
		const fast = await service.submitLead(
			deps(),
			'contact',
			{ ...contact, formToken: issueFormToken(secret) },
			'10.0.0.4'
		);
		expect(fast.spam).toBe(true);
		const slow = await service.submitLead(
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
		const forged = await service.submitLead(
			deps(),
			'contact',
			{ ...contact, message: 'Encore un autre message.', formToken: '123.abc' },
			'10.0.0.4'
		);
		expect(forged.spam).toBe(true);
	});

	it('returns the first id for the same e-mail and message within a minute, and sends nothing more', async () => {
		const attempts = await Promise.all(
			[1, 2, 3].map(() => service.submitLead(deps(), 'devis', devis, '10.0.0.5'))
		);
		const ids = new Set(attempts.map((a) => a.id));
		expect(ids.size).toBe(1);
		expect(attempts.filter((a) => a.duplicate)).toHaveLength(2);
		expect(await database.db.select().from(leads)).toHaveLength(1);
		await smtp.waitFor(2);
		await new Promise((r) => setTimeout(r, 200));
		expect(smtp.received).toHaveLength(2);
	});

	it('takes a form token once: a replay is spam, stored and sent to no one', async () => {
		const token = aged();
		const first = await service.submitLead(
			deps(),
			'contact',
			{ ...contact, formToken: token },
			'10.0.4.1',
			'page'
		);
		expect(first.spam).toBe(false);
		expect(await first.delivery).toBe(true);
		await smtp.waitFor(2);
		smtp.received.length = 0;
		const replay = await service.submitLead(
			deps(),
			'contact',
			{ ...contact, message: 'Un autre message, même jeton.', formToken: token },
			'10.0.4.2',
			'page'
		);
		expect(replay.spam).toBe(true);
		const [row] = await database.db.select().from(leads).where(eq(leads.id, replay.id));
		expect(row!.spamReason).toBe('jeton de formulaire déjà utilisé');
		const sent = await database.db.select().from(emails);
		expect(sent).toHaveLength(2);
	});

	it('requires the token on the page forms, and limits API clients without one more tightly', async () => {
		const page = await service.submitLead(deps(), 'contact', contact, '10.0.5.1', 'page');
		expect(page.spam).toBe(true);
		for (let i = 0; i < service.untokenedLimit.max; i++) {
			const api = await service.submitLead(
				downDeps(),
				'contact',
				{ ...contact, message: `Client API numéro ${i}, sans jeton.` },
				'10.0.5.2'
			);
			expect(api.spam).toBe(false);
		}
		await expect(
			service.submitLead(downDeps(), 'contact', { ...contact, message: 'Un de trop sans jeton.' }, '10.0.5.2')
		).rejects.toBeInstanceOf(RateLimitedError);
		// With a token, the same address still has the ordinary allowance.
		await expect(
			service.submitLead(
				downDeps(),
				'contact',
				{ ...contact, message: 'Avec un jeton.', formToken: aged() },
				'10.0.5.2'
			)
		).resolves.toMatchObject({ spam: false });
		expect(service.untokenedLimit.max).toBeLessThan(service.submitLimit.max);
	});

	it('rate-limits per client address (429 with a retry delay)', async () => {
		for (let i = 0; i < service.submitLimit.max; i++) {
			await service.submitLead(
				downDeps(),
				'contact',
				{ ...contact, message: `Message numéro ${i} assez long.`, formToken: aged() },
				'10.0.0.6'
			);
		}
		const over = service.submitLead(
			downDeps(),
			'contact',
			{ ...contact, message: 'Un de trop, assez long.', formToken: aged() },
			'10.0.0.6'
		);
		await expect(over).rejects.toBeInstanceOf(RateLimitedError);
		expect(await database.db.select().from(leads)).toHaveLength(service.submitLimit.max);
		await expect(
			service.submitLead(
				downDeps(),
				'contact',
				{ ...contact, message: 'Autre adresse, même contenu.' },
				'10.0.0.7'
			)
		).resolves.toBeTruthy();
	});

	it('filters, marks handled, exports CSV with defused formulas, and deletes for good', async () => {
		const a = await service.submitLead(
			downDeps(),
			'contact',
			{ ...contact, message: '=HYPERLINK("http://evil.example")' },
			'10.0.1.1'
		);
		const b = await service.submitLead(downDeps(), 'devis', devis, '10.0.1.2');
		await service.submitLead(
			downDeps(),
			'contact',
			{ ...contact, message: 'pas humain du tout', website: 'x' },
			'10.0.1.3'
		);
		expect((await service.listLeads(database.db, { spam: false })).map((l) => l.id).sort()).toEqual(
			[a.id, b.id].sort()
		);
		expect((await service.listLeads(database.db, { kind: 'devis' })).map((l) => l.id)).toEqual([b.id]);
		await service.setHandled(database.db, a.id, true, ADMIN_ACTOR);
		expect((await service.listLeads(database.db, { handled: true })).map((l) => l.id)).toEqual([a.id]);
		expect(await service.listLeads(database.db, { from: new Date(Date.now() + 60_000) })).toHaveLength(0);

		const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
			await new Response(await service.exportCsv(database.db, { spam: false }, ADMIN_ACTOR)).arrayBuffer()
		);
		expect(csv.startsWith('\uFEFFid;type;')).toBe(true);
		expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
		expect(csv.split('\r\n').filter(Boolean)).toHaveLength(3);

		await service.deleteLead(database.db, a.id, ADMIN_ACTOR);
		expect(await database.db.select().from(leads).where(eq(leads.id, a.id))).toHaveLength(0);
		await expect(service.deleteLead(database.db, a.id, ADMIN_ACTOR)).rejects.toMatchObject({ status: 404 });
	});

	it('deletes leads past the retention period and records when it ran', async () => {
		const old = await service.submitLead(
			downDeps(),
			'contact',
			{ ...contact, message: 'Une vieille demande.' },
			'10.0.2.1'
		);
		const recent = await service.submitLead(
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
		expect(run?.detail).toBe('1 supprimée');
		expect(await database.db.select().from(jobRuns)).toHaveLength(1);
	});
});

describe(`the inbox on ${driverName}`, () => {
	it('pages a tab by keys with its total, counts every tab under the same filters, and caps nothing silently', async () => {
		const base = Date.UTC(2026, 10, 1);
		const rows = Array.from({ length: 123 }, (_, i) => ({
			kind: (i % 2 ? 'contact' : 'devis') as 'contact' | 'devis',
			name: `Personne ${i}`,
			email: `p${i}@exemple.fr`,
			message: `Demande numéro ${i}`,
			spam: i % 10 === 0,
			handled: i % 3 === 0 && i % 10 !== 0,
			// Every fifth lead arrives in the same microsecond as the one before: the id orders them.
			createdAt: new Date(base + (i - (i % 5 === 4 ? 1 : 0)) * 60_000)
		}));
		await database.db.insert(leads).values(rows);
		const open = rows.filter((r) => !r.spam && !r.handled);
		const page1 = await service.inboxPage(database.db, 'a-traiter', {}, null, 20);
		expect(page1.counts).toEqual({
			open: open.length,
			handled: rows.filter((r) => !r.spam && r.handled).length,
			spam: rows.filter((r) => r.spam).length,
			all: 123
		});
		expect(page1).toMatchObject({ total: open.length, first: 1, newer: null });
		// Forwards by « Plus anciennes » to the end: every open lead once, newest first, each page placed.
		const walked: string[] = [];
		let page = page1;
		for (;;) {
			expect(page.first).toBe(walked.length + 1);
			walked.push(...page.leads.map((l) => l.id));
			if (!page.older) break;
			page = await service.inboxPage(database.db, 'a-traiter', {}, { older: page.older }, 20);
			expect(page.newer).not.toBeNull();
		}
		expect(walked).toHaveLength(open.length);
		expect(new Set(walked).size).toBe(open.length);
		const byTime = [...(await database.db.select().from(leads))]
			.filter((l) => !l.spam && !l.handled)
			.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
		expect(walked).toEqual(byTime.map((l) => l.id));
		// And back by « Plus récentes », from the last page to the first: the same pages.
		const back: string[] = [...page.leads.map((l) => l.id)];
		while (page.newer) {
			page = await service.inboxPage(database.db, 'a-traiter', {}, { newer: page.newer }, 20);
			back.unshift(...page.leads.map((l) => l.id));
		}
		expect(back).toEqual(walked);
		expect(page.first).toBe(1);
		// « Plus récentes » from the third page is the second; from a cursor with fewer than a page of newer leads
		// (the first page's last one), a whole first page, not the few newer than it.
		const second = await service.inboxPage(database.db, 'a-traiter', {}, { older: page1.older! }, 20);
		const third = await service.inboxPage(database.db, 'a-traiter', {}, { older: second.older! }, 20);
		const backToSecond = await service.inboxPage(database.db, 'a-traiter', {}, { newer: third.newer! }, 20);
		expect(backToSecond.leads.map((l) => l.id)).toEqual(second.leads.map((l) => l.id));
		const short = await service.inboxPage(database.db, 'a-traiter', {}, { newer: page1.older! }, 20);
		expect(short.leads.map((l) => l.id)).toEqual(page1.leads.map((l) => l.id));
		expect(short).toMatchObject({ first: 1, newer: null });
		// The oldest page, straight: its place known from the total.
		const oldest = await service.inboxPage(database.db, 'a-traiter', {}, { oldest: true }, 20);
		expect(oldest.leads.map((l) => l.id)).toEqual(walked.slice(-20));
		expect(oldest).toMatchObject({ first: open.length - 19, older: null });
		// A cursor whose leads were since deleted shows the nearest end, not an empty page.
		const gone = { at: '2000-01-01T00:00:00.000000Z', id: '00000000-0000-4000-8000-000000000000' };
		expect((await service.inboxPage(database.db, 'a-traiter', {}, { older: gone }, 20)).leads).toEqual(
			oldest.leads
		);
		// The type filter narrows the counts too.
		const devis = await service.inboxPage(database.db, 'toutes', { kind: 'devis' }, null, 50);
		expect(devis.counts.all).toBe(rows.filter((r) => r.kind === 'devis').length);
		expect(devis.total).toBe(devis.counts.all);
	});

	it('counts a tab no further than its bound, and never guesses where a page past it stands', async () => {
		const base = Date.UTC(2026, 10, 1);
		const bound = service.INBOX_COUNT_BOUND;
		await database.db.insert(leads).values(
			Array.from({ length: bound + 60 }, (_, i) => ({
				kind: 'contact' as const,
				name: `Personne ${i}`,
				email: `p${i}@exemple.fr`,
				message: `Demande ${i}`,
				handled: true,
				createdAt: new Date(base - i * 1000)
			}))
		);
		const first = await service.inboxPage(database.db, 'traitees', {}, null);
		// Counted up to the bound and one more: « plus de 10 000 », not the figure.
		expect(first.counts).toEqual({ open: 0, handled: bound + 1, spam: 0, all: bound + 1 });
		const oldest = await service.inboxPage(database.db, 'traitees', {}, { oldest: true });
		expect(oldest.first).toBeNull();
		expect(oldest.leads.at(-1)!.name).toBe(`Personne ${bound + 59}`);
		// A page is placed while what comes before it can be counted: from rank 10,001, not from 10,002.
		const from = (i: number) =>
			service.inboxPage(
				database.db,
				'traitees',
				{},
				{
					older: {
						at: new Date(base - i * 1000).toISOString().replace('Z', '000Z'),
						id: 'ffffffff-ffff-4fff-bfff-ffffffffffff'
					}
				}
			);
		const last = await from(bound);
		expect(last.leads[0]!.name).toBe(`Personne ${bound}`);
		expect(last.first).toBe(bound + 1);
		expect((await from(bound + 1)).first).toBeNull();
	});

	it('exports every lead once, newest first, in batches read by keys: leads of the same microsecond too', async () => {
		// 2,345 leads over three batches of 1,000; every tenth shares its neighbour's instant to the microsecond, and
		// some are a few microseconds apart (a cursor kept as a JavaScript Date would lose them).
		const base = Date.parse('2026-03-01T08:00:00Z');
		const values = Array.from({ length: 2345 }, (_, i) => ({
			kind: 'contact' as const,
			name: `Client ${i}`,
			email: `c${i}@exemple.fr`,
			message: `Demande ${i}`,
			createdAt: sql`${new Date(base + Math.floor(i / 10) * 1000).toISOString()}::timestamptz + make_interval(secs => ${(i % 10 < 5 ? 0 : i % 10) / 1e6})`
		}));
		for (let i = 0; i < values.length; i += 500)
			await database.db.insert(leads).values(values.slice(i, i + 500) as never);
		const stream = await service.exportCsv(database.db, {}, ADMIN_ACTOR);
		const reader = stream.getReader();
		const first = await reader.read();
		// The header and the first batch come before the rest is read.
		const text = (bytes?: Uint8Array | ArrayBuffer) =>
			new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
		expect(text(first.value)).toMatch(/^\uFEFFid;type;/);
		const chunks = [first.value!];
		for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
		const lines = text(Buffer.concat(chunks)).split('\r\n').filter(Boolean).slice(1);
		const ids = lines.map((line) => line.split(';')[0]);
		expect(ids).toHaveLength(2345);
		expect(new Set(ids).size).toBe(2345);
		const expected = await database.db
			.select({ id: leads.id })
			.from(leads)
			.orderBy(desc(leads.createdAt), desc(leads.id));
		expect(ids).toEqual(expected.map((r) => r.id));
	});

	it('stops reading when the client goes away', async () => {
		await database.db.insert(leads).values(
			Array.from({ length: 2500 }, (_, i) => ({
				kind: 'devis' as const,
				name: `Client ${i}`,
				email: `d${i}@exemple.fr`,
				message: `Demande ${i}`
			}))
		);
		const stream = await service.exportCsv(database.db, {}, ADMIN_ACTOR);
		const reader = stream.getReader();
		await reader.read();
		await reader.cancel();
		await expect(reader.closed).resolves.toBeUndefined();
	});
});

describe(`the leads' daily counts on ${driverName}`, () => {
	/** leads_daily as it is, and as counting the genuine leads themselves says it should be. */
	const both = async () => {
		const kept = await database.db.execute(
			sql`select day::text, raw_source, source_page, campaign, leads from leads_daily order by 1, 2, 3, 4`
		);
		const counted = await database.db.execute(sql`
			select (created_at at time zone 'Europe/Paris')::date::text as day,
				coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), '') as raw_source,
				coalesce(source_page, '') as source_page, coalesce(utm_campaign, '') as campaign,
				count(*)::int as leads
			from leads where not spam group by 1, 2, 3, 4 order by 1, 2, 3, 4`);
		const rows = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);
		return { kept: rows(kept), counted: rows(counted) };
	};
	const expectInStep = async () => {
		const { kept, counted } = await both();
		expect(kept).toEqual(counted);
		return kept;
	};

	it('follow every write to the leads, in the statement that makes it: inserts, spam, deletions, retention, truncation', async () => {
		const lead = (i: number, at: string, origin: Partial<typeof leads.$inferInsert> = {}) => ({
			kind: 'contact' as const,
			name: `Personne ${i}`,
			email: `p${i}@exemple.fr`,
			message: `Demande ${i}`,
			createdAt: new Date(at),
			...origin
		});
		// 23:30 UTC in winter is the next day in France: counted on the French day.
		const inserted = await database.db
			.insert(leads)
			.values([
				lead(1, '2026-01-10T23:30:00Z', { utmSource: 'fb', sourcePage: '/devis', utmCampaign: 'hiver' }),
				lead(2, '2026-01-10T22:30:00Z', { referrerHost: 'www.google.com', sourcePage: '/devis' }),
				lead(3, '2026-01-11T08:00:00Z', { utmSource: 'fb', sourcePage: '/devis', utmCampaign: 'hiver' }),
				lead(4, '2026-01-11T09:00:00Z', { spam: true, utmSource: 'fb' }),
				lead(5, '2026-01-11T10:00:00Z'),
				lead(6, '2025-01-01T10:00:00Z', { sourcePage: '/contact' })
			])
			.returning();
		const byName = new Map(inserted.map((l) => [l.name, l]));
		expect(await expectInStep()).toContainEqual({
			day: '2026-01-11',
			raw_source: 'fb',
			source_page: '/devis',
			campaign: 'hiver',
			leads: 2
		});
		// Spam is not counted; marked genuine, it is.
		await database.db
			.update(leads)
			.set({ spam: false })
			.where(eq(leads.id, byName.get('Personne 4')!.id));
		await expectInStep();
		await database.db
			.update(leads)
			.set({ spam: true })
			.where(eq(leads.id, byName.get('Personne 3')!.id));
		await expectInStep();
		// Handled, notified: nothing counted changes.
		await database.db.update(leads).set({ handled: true, notifiedAt: new Date() });
		await expectInStep();
		// One deleted, then retention's bulk deletion: a key whose last lead went leaves no row of 0.
		await service.deleteLead(database.db, byName.get('Personne 2')!.id, {
			id: null,
			email: 'admin@exemple.fr'
		});
		await service.purgeOldLeads(database.db, 365, new Date('2026-02-01T00:00:00Z'));
		const kept = await expectInStep();
		expect(kept.some((row) => (row as { source_page: string }).source_page === '/contact')).toBe(false);
		expect(kept.every((row) => (row as { leads: number }).leads > 0)).toBe(true);
		// A thousand at once (an import), then the table emptied.
		await database.db.insert(leads).values(
			Array.from({ length: 1000 }, (_, i) =>
				lead(100 + i, new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(), {
					utmSource: i % 3 ? 'newsletter' : null
				})
			)
		);
		await expectInStep();
		// Fifty requests at once on the same day and source (PostgreSQL runs them side by side): none lost.
		await Promise.all(
			Array.from({ length: 50 }, (_, i) =>
				database.db.insert(leads).values(lead(2000 + i, '2026-03-03T10:00:00Z', { utmSource: 'fb' }))
			)
		);
		expect(await expectInStep()).toContainEqual(
			expect.objectContaining({ day: '2026-03-03', raw_source: 'fb', leads: 50 })
		);
		await database.db.execute(sql`truncate leads cascade`);
		expect((await both()).kept).toEqual([]);
	});
});
