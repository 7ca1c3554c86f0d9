/**
 * Candidatures (issue "Training programme, part 1"): stored then notified over real SMTP; approval makes a
 * Checkout Session on the fake Stripe API through the official client and sends the dark e-mail, each failing
 * alone; the payment link is stable and makes a new session when the last one expired; 409s and races.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { candidatureSchema, type CandidatureInput } from '../../src/lib/schemas/candidature';
import * as checkout from '../../src/lib/server/candidatures/checkout';
import * as service from '../../src/lib/server/candidatures/service';
import { auditEvents, candidatures, emails, rateLimits, users } from '../../src/lib/server/db/schema';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../../src/lib/server/errors';
import { issueFormToken } from '../../src/lib/server/abuse/form-token';
import { settleBackgroundTasks } from '../../src/lib/server/lifecycle';
import { smtpTransport } from '../../src/lib/server/mail/transport';
import { createPayments } from '../../src/lib/server/payments';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';
import { startSmtp, type RunningSmtp } from '../helpers/smtp';

let database: TestDatabase;
let smtp: RunningSmtp;
let stripe: FakeStripe;
let adminId: string;
let admin: { id: string; email: string };
const secret = 's'.repeat(32);
const origin = new URL('http://atelier.test');

/** What the audit trail holds about one candidature. */
const trailOf = (id: string) => database.db.select().from(auditEvents).where(eq(auditEvents.subjectId, id));

beforeAll(async () => {
	database = await createTestDatabase();
	smtp = await startSmtp();
	stripe = await startFakeStripe();
	const [created] = await database.db
		.insert(users)
		.values({ email: 'admin@atelier.test', name: 'Admin', passwordHash: 'x', isAdmin: true })
		.returning();
	adminId = created!.id;
	admin = { id: adminId, email: created!.email };
});
afterAll(async () => {
	await settleBackgroundTasks(15_000);
	await smtp.close();
	await stripe.close();
	await database.dispose();
});
beforeEach(async () => {
	await settleBackgroundTasks(15_000);
	await database.db.delete(candidatures);
	await database.db.delete(emails);
	await database.db.delete(rateLimits);
	smtp.received.length = 0;
	stripe.requests.length = 0;
	stripe.mode = 'up';
});

const payments = () =>
	createPayments({
		secretKey: stripe.secretKey,
		webhookSecret: stripe.env.STRIPE_WEBHOOK_SECRET!,
		priceId: 'price_test_programme',
		apiUrl: new URL(stripe.url)
	});
const depsWith = (over: Partial<service.CandidatureDeps> = {}): service.CandidatureDeps => ({
	db: database.db,
	mail: { db: database.db, transport: smtpTransport(smtp.url), from: 'Atelier <no-reply@atelier.test>' },
	adminEmail: 'patron@atelier.test',
	signingSecret: secret,
	origin,
	payments: payments(),
	...over
});
const smtpDown = () => ({
	db: database.db,
	transport: smtpTransport('smtp://127.0.0.1:1'),
	from: 'Atelier <no-reply@atelier.test>'
});

let counter = 0;
function answers(over: Partial<CandidatureInput> = {}): CandidatureInput {
	counter++;
	return candidatureSchema.parse({
		firstName: 'Julien',
		lastName: 'Mor<el>',
		email: `julien${counter}@exemple.fr`,
		phone: '06 12 34 56 78',
		postalCode: '69400',
		city: 'Villefranche-sur-Saône',
		trade: 'macon',
		company: 'Morel & Fils',
		siret: '732 829 320 00074',
		yearsExperience: 12,
		teamSize: 3,
		currentSite: '',
		goals: ['demandes', 'autonomie'],
		presence: ['google'],
		hoursPerWeek: 3,
		motivation: 'Je veux que mes clients me trouvent en ligne <script>alert(1)</script> sans plateforme.',
		consent: true,
		formToken: issueFormToken(secret, Date.now() - 5_000 - counter),
		...over
	});
}
const submitted = async (over: Partial<CandidatureInput> = {}, deps = depsWith()) => {
	const result = await service.submitCandidature(deps, answers(over), `10.0.0.${counter % 250}`, 'page');
	await result.delivery;
	return result;
};

describe(`candidatures on ${driverName}`, () => {
	it('stores every answer normalised, then confirms to the candidate and notifies the business', async () => {
		const { id, status } = await submitted();
		expect(status).toBe('pending');
		const [row] = await database.db.select().from(candidatures).where(eq(candidatures.id, id));
		expect(row).toMatchObject({
			status: 'pending',
			phone: '+33612345678',
			siret: '73282932000074',
			goals: ['demandes', 'autonomie'],
			spam: false
		});
		expect(row!.consentAt).toBeInstanceOf(Date);
		expect(row!.notifiedAt).toBeInstanceOf(Date);
		const mails = await smtp.waitFor(2);
		const toAdmin = mails.find((m) => m.envelopeTo.includes('patron@atelier.test'))!;
		expect(toAdmin.parsed.subject).toBe('Nouvelle candidature : Julien Mor<el> (Morel & Fils)');
		// Escaped by Svelte in the HTML part, verbatim in the text part.
		expect(toAdmin.parsed.html).toContain('&lt;script>alert(1)&lt;/script>');
		expect(toAdmin.parsed.html).not.toContain('<script>');
		expect(toAdmin.parsed.text).toContain('SIRET : 732 829 320 00074');
		expect(toAdmin.parsed.text).toContain(`http://atelier.test/admin/candidatures/${id}`);
		expect(toAdmin.parsed.replyTo?.[0]?.address).toMatch(/^julien\d+@exemple\.fr$/);
		const toCandidate = mails.find((m) => m.envelopeTo[0]!.startsWith('julien'))!;
		expect(toCandidate.parsed.subject).toContain('bien reçue');
		expect(toCandidate.parsed.text).not.toContain('alert(1)');
	});

	it('refuses a second open candidature for the same e-mail with 409, whatever its case', async () => {
		await submitted({ email: 'double@exemple.fr' });
		const again = service.submitCandidature(
			depsWith(),
			answers({ email: 'DOUBLE@exemple.fr' }),
			'10.0.1.1',
			'page'
		);
		await expect(again).rejects.toBeInstanceOf(ConflictError);
		await expect(again).rejects.toThrow(service.ALREADY_OPEN_MESSAGE);
	});

	it('keeps the candidature and its error when SMTP is down; the resend works once it is back', async () => {
		const { id } = await submitted({}, depsWith({ mail: smtpDown() }));
		const [row] = await database.db.select().from(candidatures).where(eq(candidatures.id, id));
		expect(row!.notifyError).toBeTruthy();
		expect(row!.notifiedAt).toBeNull();
		expect(await service.resendNotification(depsWith(), id, admin)).toBe(true);
		const [after] = await database.db.select().from(candidatures).where(eq(candidatures.id, id));
		expect(after!.notifyError).toBeNull();
	});

	it('flags a filled honeypot as spam and e-mails no one', async () => {
		const { spam } = await submitted({ website: 'http://spam.example' });
		expect(spam).toBe(true);
		await settleBackgroundTasks(5_000);
		expect(smtp.received).toHaveLength(0);
	});

	it('answers 503 naming the missing configuration when nobody could be told', async () => {
		const attempt = service.submitCandidature(depsWith({ adminEmail: '' }), answers(), '10.0.2.1', 'api');
		await expect(attempt).rejects.toBeInstanceOf(ServiceUnavailableError);
		await expect(attempt).rejects.toThrow(/ADMIN_EMAIL/);
	});

	it('reports a storage failure with the database’s own message, never the SQL or its parameters', async () => {
		const broken = await createTestDatabase();
		try {
			await broken.db.execute(sql`drop table candidatures cascade`);
			const attempt = service.submitCandidature(
				depsWith({ db: broken.db }),
				answers({ email: 'secret-parametre@exemple.fr' }),
				'10.0.3.1',
				'api'
			);
			const error = (await attempt.catch((e: unknown) => e)) as service.CandidatureStorageError;
			expect(error).toBeInstanceOf(service.CandidatureStorageError);
			expect(error.status).toBe(500);
			expect(error.message).toMatch(/candidatures/);
			expect(error.message).not.toMatch(/insert into|secret-parametre|params/i);
		} finally {
			await broken.dispose();
		}
	});

	it('approves: a subscription Checkout Session with the right parameters, and the dark e-mail', async () => {
		const { id } = await submitted();
		smtp.received.length = 0;
		const result = await service.approveCandidature(depsWith(), id, admin);
		expect(result).toMatchObject({
			status: 'approved',
			emailSent: true,
			emailError: null,
			paymentError: null
		});
		expect(result.paymentLink).toMatch(new RegExp(`^http://atelier\\.test/paiement/${id}\\.[\\w-]{43}$`));
		const create = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
		expect(create.params).toMatchObject({
			mode: 'subscription',
			line_items: [{ price: 'price_test_programme', quantity: '1' }],
			customer_email: expect.stringMatching(/^julien\d+@exemple\.fr$/),
			client_reference_id: id,
			metadata: { candidatureId: id },
			subscription_data: { metadata: { candidatureId: id } },
			locale: 'fr',
			success_url: 'http://atelier.test/paiement/merci?session_id={CHECKOUT_SESSION_ID}',
			cancel_url: result.paymentLink
		});
		expect(create.idempotencyKey).toBe(`candidature-${id}-checkout-1`);
		expect(create.apiVersion).toBeTruthy();
		expect(result.checkoutUrl).toBe(stripe.sessions.get([...stripe.sessions.keys()].at(-1)!)!.url);
		const [mail] = await smtp.waitFor(1);
		expect(mail!.parsed.subject).toContain('finalisez votre inscription');
		expect(mail!.parsed.html).toContain('color-scheme" content="dark"');
		expect(mail!.parsed.html).toContain(`href="${result.paymentLink}"`);
		expect(mail!.parsed.text).toContain(result.paymentLink);
		const [row] = await database.db.select().from(candidatures).where(eq(candidatures.id, id));
		expect(row).toMatchObject({ status: 'approved', decidedBy: adminId, checkoutAttempt: 1 });
		expect(row!.decidedAt).toBeInstanceOf(Date);
	});

	it('approves with Stripe down: the e-mail still goes, paymentError says why', async () => {
		const { id } = await submitted();
		stripe.mode = 'down';
		const result = await service.approveCandidature(depsWith(), id, admin);
		expect(result.emailSent).toBe(true);
		expect(result.checkoutUrl).toBeNull();
		expect(result.paymentError).toMatch(/Stripe/);
	});

	it('approves with SMTP down: the session is still made, emailError says why', async () => {
		const { id } = await submitted();
		const result = await service.approveCandidature(depsWith({ mail: smtpDown() }), id, admin);
		expect(result.emailSent).toBe(false);
		expect(result.emailError).toBeTruthy();
		expect(result.paymentError).toBeNull();
		expect(result.checkoutUrl).toMatch(/\/c\/pay\/cs_test_/);
	});

	it('approves with both down, and with payments off: each failure is said apart', async () => {
		const { id } = await submitted();
		stripe.mode = 'down';
		const both = await service.approveCandidature(depsWith({ mail: smtpDown() }), id, admin);
		expect(both).toMatchObject({ emailSent: false, checkoutUrl: null });
		expect(both.emailError).toBeTruthy();
		expect(both.paymentError).toBeTruthy();
		const other = await submitted();
		const off = await service.approveCandidature(depsWith({ payments: null }), other.id, admin);
		expect(off.paymentError).toBe(checkout.PAYMENTS_OFF_MESSAGE);
		expect(off.emailSent).toBe(true);
	});

	it('two simultaneous approvals: one session, one e-mail, one 409', async () => {
		const { id } = await submitted();
		smtp.received.length = 0;
		const outcomes = await Promise.allSettled([
			service.approveCandidature(depsWith(), id, admin),
			service.approveCandidature(depsWith(), id, admin)
		]);
		expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
		const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
		expect(refused.reason).toBeInstanceOf(ConflictError);
		// One effect, one line in the audit trail: the refused approval rolled its row back with it.
		expect((await trailOf(id)).map((e) => e.kind)).toEqual(['candidature.approved']);
		expect(stripe.requests.filter((r) => r.path === '/v1/checkout/sessions')).toHaveLength(1);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(smtp.received).toHaveLength(1);
	});

	it('rejects only a pending candidature, with the reason in a kind e-mail', async () => {
		const { id } = await submitted();
		smtp.received.length = 0;
		const result = await service.rejectCandidature(depsWith(), id, admin, 'Zone déjà couverte <b>ici</b>.');
		expect(result).toEqual({ status: 'rejected', emailSent: true, emailError: null });
		const [mail] = await smtp.waitFor(1);
		expect(mail!.parsed.text).toContain('Zone déjà couverte <b>ici</b>.');
		expect(mail!.parsed.html).toContain('Zone déjà couverte &lt;b>ici&lt;/b>.');
		await expect(service.rejectCandidature(depsWith(), id, admin)).rejects.toBeInstanceOf(ConflictError);
		await expect(service.approveCandidature(depsWith(), id, admin)).rejects.toBeInstanceOf(ConflictError);
		// The trail says who rejected it and that a reason was given, never the admin's words about a person.
		const trail = await trailOf(id);
		expect(trail).toMatchObject([
			{
				kind: 'candidature.rejected',
				actorId: admin.id,
				actorEmail: admin.email,
				changes: {
					status: { before: 'pending', after: 'rejected' },
					reasonGiven: { before: null, after: true }
				}
			}
		]);
		expect(JSON.stringify(trail)).not.toContain('Zone déjà couverte');
	});

	it('the payment link reuses an open session, makes a new one once it expired, and refuses a tampered token', async () => {
		const { id } = await submitted();
		const approval = await service.approveCandidature(depsWith(), id, admin);
		const token = approval.paymentLink.split('/paiement/')[1]!;
		const first = await checkout.checkoutForToken(depsWith(), token);
		expect(first).toEqual({ kind: 'redirect', url: approval.checkoutUrl });

		const [row] = await database.db.select().from(candidatures).where(eq(candidatures.id, id));
		stripe.expire(row!.checkoutSessionId!);
		const second = await checkout.checkoutForToken(depsWith(), token);
		expect(second.kind).toBe('redirect');
		expect((second as { url: string }).url).not.toBe(approval.checkoutUrl);
		const creates = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
		expect(creates.map((r) => r.idempotencyKey)).toEqual([
			`candidature-${id}-checkout-1`,
			`candidature-${id}-checkout-2`
		]);

		const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
		expect(await checkout.checkoutForToken(depsWith(), tampered)).toEqual({ kind: 'not-found' });
		expect(await checkout.checkoutForToken(depsWith(), `${id}`)).toEqual({ kind: 'not-found' });
		expect(await checkout.checkoutForToken(depsWith({ payments: null }), token)).toEqual({
			kind: 'payments-off'
		});

		await database.db.update(candidatures).set({ status: 'enrolled' }).where(eq(candidatures.id, id));
		expect(await checkout.checkoutForToken(depsWith(), token)).toEqual({ kind: 'enrolled' });
	});

	it('the payment link of a pending or rejected candidature is not found', async () => {
		const pending = await submitted();
		const link = checkout.paymentLinkOf(depsWith(), pending.id).split('/paiement/')[1]!;
		expect(await checkout.checkoutForToken(depsWith(), link)).toEqual({ kind: 'not-found' });
		await service.rejectCandidature(depsWith(), pending.id, admin);
		expect(await checkout.checkoutForToken(depsWith(), link)).toEqual({ kind: 'not-found' });
	});

	it('lists newest first with filters, counts per status and pages with a total', async () => {
		const a = await submitted({ company: 'Alpha Pierre', trade: 'macon' });
		await submitted({ company: 'Beta Jardins', trade: 'paysagiste' });
		await service.rejectCandidature(depsWith(), a.id, admin);
		const all = await service.listCandidatures(database.db, {});
		expect(all.total).toBe(2);
		expect(all.rows[0]!.company).toBe('Beta Jardins');
		expect((await service.listCandidatures(database.db, { search: 'alpha' })).rows).toHaveLength(1);
		expect((await service.listCandidatures(database.db, { trade: 'paysagiste' })).rows).toHaveLength(1);
		expect((await service.listCandidatures(database.db, { search: '100%_' })).total).toBe(0);
		expect(await service.countByStatus(database.db)).toEqual({
			pending: 1,
			approved: 0,
			rejected: 1,
			enrolled: 0
		});
		// One per page: the pager's figures, and a page past the end shows the last one.
		const second = await service.listCandidatures(database.db, {}, 2, 1);
		expect(second).toMatchObject({ total: 2, page: 2, pages: 2, pageSize: 1 });
		expect(second.rows.map((c) => c.company)).toEqual(['Alpha Pierre']);
		const beyond = await service.listCandidatures(database.db, {}, 9, 1);
		expect(beyond).toMatchObject({ page: 2, pages: 2 });
		expect(beyond.rows.map((c) => c.company)).toEqual(['Alpha Pierre']);
	});

	it('finds one for its admin page, and a spam or unknown one is a NotFoundError', async () => {
		const real = await submitted({ company: 'Gamma Toits' });
		expect((await service.findCandidature(database.db, real.id)).company).toBe('Gamma Toits');
		await expect(service.findCandidature(database.db, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
		await database.db.update(candidatures).set({ spam: true }).where(eq(candidatures.id, real.id));
		await expect(service.findCandidature(database.db, real.id)).rejects.toBeInstanceOf(NotFoundError);
	});
});
