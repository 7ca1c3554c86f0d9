/**
 * Payments into memberships (issue "Training programme, part 2"): events signed with the official package's
 * test-header helper, verified with `constructEventAsync`, applied once whatever the order or the number of
 * deliveries; accounts made from payments, welcome and reset links, the access rule, account deletion.
 */
import { signIn } from '../helpers/sign-in';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as accounts from '../helpers/accounts';
import { validateSessionToken, generateSessionToken } from '../../src/lib/server/auth/session';
import { createSession } from '../../src/lib/server/auth/session-open';
import {
	candidatures,
	emails,
	memberships,
	passwordTokens,
	rateLimits,
	sessions,
	stripeEvents,
	users
} from '../../src/lib/server/db/schema';
import { RateLimitedError, ServiceUnavailableError, ValidationError } from '../../src/lib/server/errors';
import { settleBackgroundTasks } from '../../src/lib/server/lifecycle';
import { smtpTransport } from '../../src/lib/server/mail/transport';
import * as service from '../../src/lib/server/memberships/service';
import { createPayments } from '../../src/lib/server/payments';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';
import { startSmtp, type RunningSmtp } from '../helpers/smtp';
import {
	checkoutCompleted,
	invoiceEvent,
	signEvent,
	subscriptionEvent,
	type SignedEvent
} from '../helpers/stripe-events';

let database: TestDatabase;
let smtp: RunningSmtp;
let stripe: FakeStripe;
const origin = new URL('http://atelier.test');

beforeAll(async () => {
	database = await createTestDatabase();
	smtp = await startSmtp();
	stripe = await startFakeStripe();
});
afterAll(async () => {
	await settleBackgroundTasks(15_000);
	await smtp.close();
	await stripe.close();
	await database.dispose();
});
beforeEach(async () => {
	await settleBackgroundTasks(15_000);
	for (const table of [stripeEvents, memberships, passwordTokens, candidatures, emails, rateLimits, sessions])
		await database.db.delete(table);
	await database.db.delete(users);
	smtp.received.length = 0;
});

const secret = () => stripe.env.STRIPE_WEBHOOK_SECRET!;
const deps = (over: Partial<service.MembershipDeps> = {}): service.MembershipDeps => ({
	db: database.db,
	mail: { db: database.db, transport: smtpTransport(smtp.url), from: 'Atelier <no-reply@atelier.test>' },
	adminEmail: 'patron@atelier.test',
	origin,
	payments: createPayments({
		secretKey: stripe.secretKey,
		webhookSecret: secret(),
		priceId: 'price_test_programme',
		apiUrl: new URL(stripe.url)
	}),
	...over
});
const deliver = (signed: SignedEvent, d = deps()) => service.receiveWebhook(d, signed.payload, signed.header);

let counter = 0;
async function approvedCandidature(status: 'approved' | 'pending' = 'approved') {
	counter++;
	const [row] = await database.db
		.insert(candidatures)
		.values({
			status,
			firstName: 'Julien',
			lastName: 'Morel',
			email: `Julien${counter}@Exemple.fr`.toLowerCase(),
			phone: '+33612345678',
			postalCode: '69400',
			city: 'Villefranche',
			trade: 'macon',
			company: 'Morel',
			siret: '73282932000074',
			yearsExperience: 3,
			teamSize: 1,
			goals: ['demandes'],
			presence: ['aucune'],
			hoursPerWeek: 2,
			motivation: 'x'.repeat(60),
			consentAt: new Date()
		})
		.returning();
	return row!;
}
/** A completed checkout at `t` and, 5 s later, the subscription gone past due (paid until `t` + 9 days). */
function checkoutThenPastDue(c: { id: string; email: string }, subscription: string, t: number) {
	return {
		checkout: signEvent(
			checkoutCompleted({ candidatureId: c.id, email: c.email, subscription, created: t }),
			secret()
		),
		update: signEvent(
			subscriptionEvent('customer.subscription.updated', {
				id: subscription,
				status: 'past_due',
				candidatureId: c.id,
				created: t + 5,
				periodEnd: t + 9 * 86400
			}),
			secret()
		)
	};
}
const membershipOf = async (subscriptionId: string) =>
	(
		await database.db.select().from(memberships).where(eq(memberships.stripeSubscriptionId, subscriptionId))
	)[0];

describe(`the Stripe webhook on ${driverName}`, () => {
	it('refuses a missing, wrong or stale signature with 400, and answers 503 with payments off', async () => {
		const c = await approvedCandidature();
		const event = checkoutCompleted({ candidatureId: c.id, email: c.email });
		const good = signEvent(event, secret());
		await expect(service.receiveWebhook(deps(), good.payload, null)).rejects.toMatchObject({ status: 400 });
		const wrong = signEvent(event, 'whsec_not_ours');
		await expect(deliver(wrong)).rejects.toBeInstanceOf(service.BadSignatureError);
		const stale = signEvent(event, secret(), Math.floor(Date.now() / 1000) - 301);
		await expect(deliver(stale)).rejects.toMatchObject({ status: 400 });
		const tampered = { ...good, payload: good.payload.replace(c.id, '00000000-0000-4000-8000-000000000000') };
		await expect(deliver(tampered)).rejects.toMatchObject({ status: 400 });
		await expect(deliver(good, deps({ payments: null }))).rejects.toBeInstanceOf(ServiceUnavailableError);
		expect(await database.db.select().from(stripeEvents)).toHaveLength(0);
	});

	it('a completed checkout makes the account, the membership, enrols the candidature and sends the welcome link', async () => {
		const c = await approvedCandidature();
		expect(
			await deliver(
				signEvent(checkoutCompleted({ candidatureId: c.id, email: c.email, subscription: 'sub_a' }), secret())
			)
		).toBe('applied');
		const [user] = await database.db.select().from(users).where(eq(users.email, c.email));
		expect(user).toBeDefined();
		expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
		const [enrolled] = await database.db.select().from(candidatures).where(eq(candidatures.id, c.id));
		expect(enrolled).toMatchObject({ status: 'enrolled', userId: user!.id });
		expect(await membershipOf('sub_a')).toMatchObject({
			userId: user!.id,
			status: 'active',
			stripeCustomerId: 'cus_test_1'
		});

		const [welcome] = await smtp.waitFor(1);
		expect(welcome!.envelopeTo).toEqual([c.email]);
		const link = /http:\/\/atelier\.test\/mot-de-passe\/[\w-]{43}/.exec(welcome!.parsed.text ?? '')![0];
		const token = link.split('/').at(-1)!;
		// Only the hash is stored, valid 7 days.
		const [stored] = await database.db.select().from(passwordTokens);
		expect(stored!.hash).not.toContain(token);
		expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

		await expect(accounts.setPasswordWithLink(database.db, token, 'court')).rejects.toBeInstanceOf(
			ValidationError
		);
		const member = await accounts.setPasswordWithLink(database.db, token, 'une phrase de passe solide');
		expect(member.id).toBe(user!.id);
		expect((await signIn(database.db, c.email, 'une phrase de passe solide', '10.9.0.1')).id).toBe(user!.id);
		await expect(
			accounts.setPasswordWithLink(database.db, token, 'une autre phrase solide')
		).rejects.toMatchObject({ state: 'used' });
	});

	it('a replay ×10 and 10 simultaneous deliveries: one account, one membership, one e-mail, all answered', async () => {
		const c = await approvedCandidature();
		const signed = signEvent(
			checkoutCompleted({ candidatureId: c.id, email: c.email, subscription: 'sub_b' }),
			secret()
		);
		const concurrent = await Promise.all(Array.from({ length: 10 }, () => deliver(signed)));
		expect(concurrent.filter((o) => o === 'applied')).toHaveLength(1);
		expect(concurrent.filter((o) => o === 'duplicate')).toHaveLength(9);
		for (let i = 0; i < 10; i++) expect(await deliver(signed)).toBe('duplicate');
		expect(await database.db.select().from(users).where(eq(users.email, c.email))).toHaveLength(1);
		expect(await database.db.select().from(memberships)).toHaveLength(1);
		await settleBackgroundTasks(10_000);
		expect(smtp.received).toHaveLength(1);
	});

	it('an existing user with the same e-mail is found, not duplicated', async () => {
		const c = await approvedCandidature();
		await database.db.insert(users).values({ email: c.email, name: 'Déjà là', passwordHash: 'x' });
		await deliver(
			signEvent(
				checkoutCompleted({ candidatureId: c.id, email: c.email.toUpperCase(), subscription: 'sub_c' }),
				secret()
			)
		);
		expect(await database.db.select().from(users)).toHaveLength(1);
		expect((await membershipOf('sub_c'))!.userId).toBeTruthy();
	});

	it('ignores, and records, events that are not about our approved candidatures', async () => {
		const pending = await approvedCandidature('pending');
		const foreign = [
			checkoutCompleted({ candidatureId: pending.id, email: pending.email, subscription: 'sub_x' }),
			checkoutCompleted({ candidatureId: '00000000-0000-4000-8000-000000000000', email: 'x@y.fr' }),
			checkoutCompleted({ candidatureId: 'pas-un-uuid', email: 'x@y.fr' }),
			checkoutCompleted({ candidatureId: pending.id, email: pending.email, mode: 'payment' }),
			subscriptionEvent('customer.subscription.updated', { id: 'sub_elsewhere', status: 'active' }),
			// A subscription naming a candidature that is not one we may enrol, or no candidature at all.
			subscriptionEvent('customer.subscription.created', {
				id: 'sub_pending',
				status: 'active',
				candidatureId: pending.id
			}),
			subscriptionEvent('customer.subscription.created', {
				id: 'sub_bad_id',
				status: 'active',
				candidatureId: "pas-un-uuid'; drop table memberships; --"
			}),
			invoiceEvent('invoice.paid', { subscription: 'sub_elsewhere' }),
			{
				...subscriptionEvent('customer.subscription.updated', { id: 'sub_y', status: 'active' }),
				type: 'customer.created'
			}
		];
		for (const event of foreign) expect(await deliver(signEvent(event, secret()))).toBe('ignored');
		expect(await database.db.select().from(memberships)).toHaveLength(0);
		const recorded = await database.db.select().from(stripeEvents);
		expect(recorded).toHaveLength(foreign.length);
		expect(recorded.every((e) => e.outcome === 'ignored' && e.processedAt)).toBe(true);
		expect(await database.db.select().from(users)).toHaveLength(0);
	});

	it('each event type moves the membership, never back to an older state', async () => {
		const c = await approvedCandidature();
		const t = Math.floor(Date.now() / 1000);
		await deliver(
			signEvent(
				checkoutCompleted({ candidatureId: c.id, email: c.email, subscription: 'sub_d', created: t }),
				secret()
			)
		);
		await deliver(
			signEvent(invoiceEvent('invoice.payment_failed', { subscription: 'sub_d', created: t + 10 }), secret())
		);
		expect((await membershipOf('sub_d'))!.status).toBe('past_due');
		// The member's session carries the latest state, read in the session's own query: what the pages decide on.
		const token = generateSessionToken();
		await createSession(database.db, token, (await membershipOf('sub_d'))!.userId!);
		const seen = async () => (await validateSessionToken(database.db, token)).user!.membership;
		expect(await seen()).toMatchObject({ status: 'past_due', stripeCustomerId: expect.any(String) });
		await deliver(
			signEvent(
				invoiceEvent('invoice.paid', { subscription: 'sub_d', created: t + 20, periodEnd: t + 40 * 86400 }),
				secret()
			)
		);
		const paid = (await membershipOf('sub_d'))!;
		expect(paid.status).toBe('active');
		expect(paid.currentPeriodEnd!.getTime()).toBe((t + 40 * 86400) * 1000);
		expect(await seen()).toEqual({
			status: 'active',
			currentPeriodEnd: paid.currentPeriodEnd,
			stripeCustomerId: paid.stripeCustomerId
		});
		// A late "past_due" from before the payment changes nothing.
		await deliver(
			signEvent(
				subscriptionEvent('customer.subscription.updated', {
					id: 'sub_d',
					status: 'past_due',
					created: t + 15
				}),
				secret()
			)
		);
		expect((await membershipOf('sub_d'))!.status).toBe('active');
		await deliver(
			signEvent(
				subscriptionEvent('customer.subscription.deleted', {
					id: 'sub_d',
					status: 'canceled',
					created: t + 30
				}),
				secret()
			)
		);
		expect((await membershipOf('sub_d'))!.status).toBe('canceled');
		const ended = await seen();
		expect(ended!.status).toBe('canceled');
		expect(service.courseAccess({ isAdmin: false }, ended)).toEqual({ allowed: false, reason: 'ended' });
	});

	it('a late, older event keeps the newer state but brings a period end the membership lacked', async () => {
		const c = await approvedCandidature();
		const t = Math.floor(Date.now() / 1000);
		await deliver(
			signEvent(
				checkoutCompleted({ candidatureId: c.id, email: c.email, subscription: 'sub_late', created: t }),
				secret()
			)
		);
		expect((await membershipOf('sub_late'))!.currentPeriodEnd).toBeNull();
		const late = signEvent(
			subscriptionEvent('customer.subscription.created', {
				id: 'sub_late',
				status: 'incomplete',
				created: t - 5,
				periodEnd: t + 30 * 86400
			}),
			secret()
		);
		expect(await deliver(late)).toBe('applied');
		const m = (await membershipOf('sub_late'))!;
		expect(m.status).toBe('active');
		expect(m.stateAt.getTime()).toBe(t * 1000);
		expect(m.currentPeriodEnd!.getTime()).toBe((t + 30 * 86400) * 1000);
	});

	it('an update delivered before its checkout ends in the same state as the normal order', async () => {
		const t = Math.floor(Date.now() / 1000);
		const run = async (order: 'normal' | 'reversed') => {
			const c = await approvedCandidature();
			const sub = `sub_order_${order}`;
			const { checkout, update } = checkoutThenPastDue(c, sub, t);
			for (const event of order === 'normal' ? [checkout, update] : [update, checkout]) await deliver(event);
			const m = (await membershipOf(sub))!;
			const [cand] = await database.db.select().from(candidatures).where(eq(candidatures.id, c.id));
			return {
				status: m.status,
				periodEnd: m.currentPeriodEnd?.getTime(),
				linked: !!m.userId,
				enrolled: cand!.status
			};
		};
		const normal = await run('normal');
		expect(normal).toEqual({
			status: 'past_due',
			periodEnd: (t + 9 * 86400) * 1000,
			linked: true,
			enrolled: 'enrolled'
		});
		expect(await run('reversed')).toEqual(normal);
	});
	it('one subscription event ×10 at once and again: applied once, recorded once', async () => {
		const c = await approvedCandidature();
		const signed = signEvent(
			subscriptionEvent('customer.subscription.created', {
				id: 'sub_once',
				status: 'incomplete',
				candidatureId: c.id
			}),
			secret()
		);
		const outcomes = await Promise.all(Array.from({ length: 10 }, () => deliver(signed)));
		expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
		expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(9);
		expect(await deliver(signed)).toBe('duplicate');
		expect(await database.db.select().from(stripeEvents)).toMatchObject([{ outcome: 'applied' }]);
		expect(await database.db.select().from(memberships)).toMatchObject([{ status: 'incomplete' }]);
	});

	it('ten states of a subscription we do not know yet, delivered at once and newest first, end at the newest', async () => {
		const c = await approvedCandidature();
		const t = Math.floor(Date.now() / 1000);
		const statuses = [
			'incomplete',
			'active',
			'past_due',
			'active',
			'past_due',
			'active',
			'past_due',
			'active',
			'active',
			'canceled'
		];
		const states = statuses.map((status, i) =>
			signEvent(
				subscriptionEvent('customer.subscription.updated', {
					id: 'sub_race',
					status,
					candidatureId: c.id,
					created: t + i,
					periodEnd: t + (i + 1) * 86400
				}),
				secret()
			)
		);
		const outcomes = await Promise.all(states.reverse().map((signed) => deliver(signed)));
		expect(outcomes).toEqual(Array(10).fill('applied'));
		const rows = await database.db.select().from(memberships);
		expect(rows).toHaveLength(1);
		expect(rows[0]).toMatchObject({
			status: 'canceled',
			candidatureId: c.id,
			stripeCustomerId: 'cus_test_1'
		});
		expect(rows[0]!.stateAt.getTime()).toBe((t + 9) * 1000);
		expect(rows[0]!.currentPeriodEnd!.getTime()).toBe((t + 10 * 86400) * 1000);
		expect(await database.db.select().from(stripeEvents)).toHaveLength(10);
	});

	it('a subscription event and its checkout at once: one membership, the member linked, the newer state kept', async () => {
		const t = Math.floor(Date.now() / 1000);
		for (const order of ['checkout first', 'update first']) {
			const c = await approvedCandidature();
			const sub = `sub_pair_${order.split(' ')[0]}`;
			const { checkout, update } = checkoutThenPastDue(c, sub, t);
			const pair = order === 'checkout first' ? [checkout, update] : [update, checkout];
			expect(await Promise.all(pair.map((signed) => deliver(signed)))).toEqual(['applied', 'applied']);
			const m = (await membershipOf(sub))!;
			expect(m).toMatchObject({ status: 'past_due', candidatureId: c.id });
			expect(m.userId).toBeTruthy();
			expect(m.currentPeriodEnd!.getTime()).toBe((t + 9 * 86400) * 1000);
		}
	});
});

describe(`access, passwords and deletion on ${driverName}`, () => {
	it('the course access rule follows the membership', () => {
		const now = new Date('2026-06-01T00:00:00Z');
		const later = new Date('2026-06-10T00:00:00Z');
		const earlier = new Date('2026-05-20T00:00:00Z');
		const member = { isAdmin: false };
		expect(service.courseAccess({ isAdmin: true }, null, now)).toMatchObject({
			allowed: true,
			reason: 'admin'
		});
		expect(service.courseAccess(member, null, now)).toEqual({ allowed: false, reason: 'none' });
		for (const status of ['active', 'trialing'])
			expect(service.courseAccess(member, { status, currentPeriodEnd: earlier }, now).allowed).toBe(true);
		expect(service.courseAccess(member, { status: 'past_due', currentPeriodEnd: later }, now)).toEqual({
			allowed: true,
			reason: 'grace',
			until: later
		});
		expect(service.courseAccess(member, { status: 'past_due', currentPeriodEnd: earlier }, now).allowed).toBe(
			false
		);
		for (const status of ['canceled', 'unpaid', 'incomplete'])
			expect(service.courseAccess(member, { status, currentPeriodEnd: later }, now)).toEqual({
				allowed: false,
				reason: 'ended'
			});
	});

	it('a reset answers the same with or without an account, is rate limited, and signs every session out', async () => {
		const [user] = await database.db
			.insert(users)
			.values({ email: 'reset@exemple.fr', name: 'Reset', passwordHash: 'x' })
			.returning();
		const token = generateSessionToken();
		await createSession(database.db, token, user!.id);
		const mailDeps = { db: database.db, mail: deps().mail, origin };
		await expect(
			accounts.sendPasswordReset(mailDeps, 'personne@exemple.fr', '10.8.0.1')
		).resolves.toBeUndefined();
		await expect(
			accounts.sendPasswordReset(mailDeps, 'Reset@exemple.fr', '10.8.0.2')
		).resolves.toBeUndefined();
		const [mail] = await smtp.waitFor(1);
		expect(mail!.envelopeTo).toEqual(['reset@exemple.fr']);
		const link = /\/mot-de-passe\/([\w-]{43})/.exec(mail!.parsed.text ?? '')![1]!;
		await accounts.setPasswordWithLink(database.db, link, 'une nouvelle phrase solide');
		expect((await validateSessionToken(database.db, token)).session).toBeNull();

		await accounts.sendPasswordReset(mailDeps, 'reset@exemple.fr', '10.8.0.3');
		await accounts.sendPasswordReset(mailDeps, 'reset@exemple.fr', '10.8.0.4');
		await expect(accounts.sendPasswordReset(mailDeps, 'reset@exemple.fr', '10.8.0.5')).rejects.toBeInstanceOf(
			RateLimitedError
		);
	});

	it('opens a Stripe Billing Portal session for a member with a customer, and refuses otherwise', async () => {
		const c = await approvedCandidature();
		await deliver(
			signEvent(
				checkoutCompleted({
					candidatureId: c.id,
					email: c.email,
					subscription: 'sub_portal',
					customer: 'cus_portal'
				}),
				secret()
			)
		);
		const [user] = await database.db.select().from(users).where(eq(users.email, c.email));
		const url = await service.billingPortalUrl(deps(), user!.id, 'http://atelier.test/profil');
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p\/session\//);
		const asked = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
		expect(asked.params).toEqual({ customer: 'cus_portal', return_url: 'http://atelier.test/profil' });
		await expect(
			service.billingPortalUrl(deps({ payments: null }), user!.id, 'http://x/')
		).rejects.toBeInstanceOf(ServiceUnavailableError);
		const [stranger] = await database.db
			.insert(users)
			.values({ email: 'sans@exemple.fr', name: 'Sans', passwordHash: 'x' })
			.returning();
		await expect(service.billingPortalUrl(deps(), stranger!.id, 'http://x/')).rejects.toBeInstanceOf(
			ServiceUnavailableError
		);
	});

	it('deleting an account: password checked, subscription cancelled first, candidature anonymised, admin told', async () => {
		const c = await approvedCandidature();
		await deliver(
			signEvent(checkoutCompleted({ candidatureId: c.id, email: c.email, subscription: 'sub_del' }), secret())
		);
		const [welcome] = await smtp.waitFor(1);
		const token = /\/mot-de-passe\/([\w-]{43})/.exec(welcome!.parsed.text ?? '')![1]!;
		const user = await accounts.setPasswordWithLink(database.db, token, 'une phrase de passe solide');
		smtp.received.length = 0;

		await expect(
			service.deleteAccount(deps(), { userId: user.id, sessionId: 'session-membre' }, 'mauvais mot de passe')
		).rejects.toBeInstanceOf(ValidationError);
		stripe.mode = 'down';
		await expect(
			service.deleteAccount(
				deps(),
				{ userId: user.id, sessionId: 'session-membre' },
				'une phrase de passe solide'
			)
		).rejects.toBeInstanceOf(ServiceUnavailableError);
		expect(await database.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
		stripe.mode = 'up';

		await service.deleteAccount(
			deps(),
			{ userId: user.id, sessionId: 'session-membre' },
			'une phrase de passe solide'
		);
		expect(stripe.cancelled).toContain('sub_del');
		expect(await database.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
		expect(await database.db.select().from(memberships)).toHaveLength(0);
		const [anonymised] = await database.db.select().from(candidatures).where(eq(candidatures.id, c.id));
		expect(anonymised).toMatchObject({ firstName: '—', motivation: '', phone: '', userId: null });
		expect(anonymised!.email).toBe(`supprime-${c.id}@invalid`);
		const [notice] = await smtp.waitFor(1);
		expect(notice!.envelopeTo).toEqual(['patron@atelier.test']);
		expect(notice!.parsed.text).toContain('abonnement Stripe a été résilié');
	});
});
