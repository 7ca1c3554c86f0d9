/**
 * Members' own data (issue "Trust", point 4): the file holds every kind of row about the account and nothing
 * about anyone else, nor any secret; the member's route and the admin's answer it as an attachment, no-store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDepsForTests } from '../../src/lib/server/app';
import {
	candidatures,
	emailChanges,
	emails,
	memberships,
	moduleProgress,
	modules,
	sessions,
	users,
	quizAttempts,
	videoPositions
} from '../../src/lib/server/db/schema';
import { NotFoundError } from '../../src/lib/server/errors';
import { personalDataOf, type PersonalData } from '../../src/lib/server/privacy/export';
import { GET as memberGet } from '../../src/routes/(members)/profil/donnees/+server';
import { GET as adminGet } from '../../src/routes/admin/utilisateurs/[id=uuid]/donnees/+server';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
let claireId: string;
let otherId: string;
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$SECRETSALT$SECRETHASH';
const SESSION_ID = 'f'.repeat(64);

const candidature = (email: string, firstName: string) => ({
	firstName,
	lastName: 'Roche',
	email,
	phone: '+33612345678',
	postalCode: '69400',
	city: 'Villefranche-sur-Saône',
	trade: 'macon',
	company: `${firstName} Maçonnerie`,
	siret: '73282932000074',
	yearsExperience: 12,
	teamSize: 2,
	goals: ['demandes'],
	presence: ['reseaux'],
	hoursPerWeek: 3,
	motivation: 'Être trouvée par les particuliers.',
	consentAt: new Date('2026-10-01T08:00:00Z')
});

beforeAll(async () => {
	database = await createTestDatabase();
	useDepsForTests({ db: database.db });
	const db = database.db;
	const [claire, other, admin] = await db
		.insert(users)
		.values([
			{ email: 'claire@exemple.fr', name: 'Claire Roche', passwordHash: HASH },
			{ email: 'autre@exemple.fr', name: 'Autre Personne', passwordHash: HASH },
			{ email: 'admin@exemple.fr', name: 'Admin', passwordHash: HASH, isAdmin: true }
		])
		.returning();
	claireId = claire!.id;
	otherId = other!.id;
	const [theirs] = await db
		.insert(candidatures)
		.values([
			{
				...candidature('claire@exemple.fr', 'Claire'),
				status: 'enrolled',
				userId: claireId,
				decidedBy: admin!.id,
				decidedAt: new Date('2026-10-02T08:00:00Z'),
				checkoutUrl: 'https://checkout.stripe.test/secret-session'
			},
			candidature('autre@exemple.fr', 'Autre')
		])
		.returning();
	await db.insert(memberships).values({
		userId: claireId,
		candidatureId: theirs!.id,
		stripeCustomerId: 'cus_claire',
		stripeSubscriptionId: 'sub_claire',
		status: 'active',
		currentPeriodEnd: new Date('2026-12-01T00:00:00Z'),
		stateAt: new Date('2026-11-01T00:00:00Z')
	});
	const [first] = await db
		.insert(modules)
		.values([
			{ slug: 'fondations', title: 'Les fondations', position: 1, published: true },
			{ slug: 'murs', title: 'Les murs', position: 2, published: true }
		])
		.returning();
	await db.insert(moduleProgress).values([
		{ userId: claireId, moduleId: first!.id },
		{ userId: otherId, moduleId: first!.id }
	]);
	await db.insert(videoPositions).values([
		{ userId: claireId, moduleId: first!.id, seconds: 252 },
		{ userId: otherId, moduleId: first!.id, seconds: 17 }
	]);
	await db.insert(quizAttempts).values([
		{
			userId: claireId,
			moduleId: first!.id,
			score: 50,
			correct: 1,
			total: 2,
			passed: false,
			answers: [[1], [0]]
		},
		{
			userId: otherId,
			moduleId: first!.id,
			score: 100,
			correct: 2,
			total: 2,
			passed: true,
			answers: [[0], [1]]
		}
	]);
	await db.insert(emails).values([
		{
			to: 'claire@exemple.fr',
			subject: 'Bienvenue',
			template: 'member-welcome',
			status: 'sent',
			sentAt: new Date()
		},
		{ to: 'autre@exemple.fr', subject: 'Bienvenue', template: 'member-welcome', status: 'sent' }
	]);
	const inAMonth = new Date(Date.now() + 30 * 86_400_000);
	await db.insert(sessions).values([
		{ id: SESSION_ID, userId: claireId, expiresAt: inAMonth },
		{ id: 'e'.repeat(64), userId: claireId, expiresAt: new Date(Date.now() - 1000) },
		{ id: 'd'.repeat(64), userId: otherId, expiresAt: inAMonth }
	]);
	await db.insert(emailChanges).values({
		hash: 'c'.repeat(64),
		userId: claireId,
		newEmail: 'claire.nouvelle@exemple.fr',
		expiresAt: inAMonth
	});
});
afterAll(async () => {
	useDepsForTests(null);
	await database.dispose();
});

describe(`a member's data on ${driverName}`, () => {
	it('holds every kind of row about the account, and only theirs', async () => {
		const data: PersonalData = await personalDataOf(database.db, claireId);
		expect(data.format).toBe(1);
		expect(data.account).toMatchObject({ email: 'claire@exemple.fr', name: 'Claire Roche', role: 'member' });
		expect(data.candidatures).toHaveLength(1);
		expect(data.candidatures[0]).toMatchObject({ status: 'enrolled', company: 'Claire Maçonnerie' });
		expect(data.memberships).toEqual([
			expect.objectContaining({ status: 'active', stripeSubscriptionId: 'sub_claire' })
		]);
		expect(data.courseProgress.map((p) => p.module)).toEqual(['fondations']);
		expect(data.videoPositions).toEqual([expect.objectContaining({ module: 'fondations', seconds: 252 })]);
		expect(data.quizAttempts).toEqual([
			expect.objectContaining({ module: 'fondations', score: 50, passed: false, answers: [[1], [0]] })
		]);
		expect(data.emails.map((m) => m.to)).toEqual(['claire@exemple.fr']);
		// Open sessions only; the expired one is gone from the file as it is from the site.
		expect(data.sessions).toHaveLength(1);
		expect(data.pendingEmailChanges).toEqual([
			expect.objectContaining({ newEmail: 'claire.nouvelle@exemple.fr' })
		]);
	});

	it('holds no secret and nothing about the admin who decided', async () => {
		const text = JSON.stringify(await personalDataOf(database.db, claireId));
		for (const secret of [HASH, SESSION_ID, 'c'.repeat(64), 'secret-session', 'autre@exemple.fr'])
			expect(text).not.toContain(secret);
		expect(text).not.toMatch(/decidedBy|passwordHash|checkoutUrl|spam/);
	});

	it('is a NotFoundError for an account that does not exist', async () => {
		await expect(personalDataOf(database.db, '00000000-0000-4000-8000-00000000dead')).rejects.toBeInstanceOf(
			NotFoundError
		);
	});

	it('is downloaded as an attachment that no cache keeps, by the member and by an admin', async () => {
		const asUser = (user: { id: string; isAdmin: boolean } | null, params = {}) =>
			({
				locals: { user: user && { ...user, email: 'x@exemple.fr', name: 'X' } },
				params,
				route: { id: null },
				url: new URL('http://localhost/profil/donnees'),
				request: new Request('http://localhost/profil/donnees'),
				cookies: { set() {}, get: () => undefined, delete() {} }
			}) as never;
		const mine = await memberGet(asUser({ id: claireId, isAdmin: false }));
		expect(mine.status).toBe(200);
		expect(mine.headers.get('content-type')).toBe('application/json; charset=utf-8');
		expect(mine.headers.get('cache-control')).toBe('no-store');
		expect(mine.headers.get('content-disposition')).toMatch(
			/^attachment; filename="mes-donnees-atelier-\d{4}-\d{2}-\d{2}\.json"$/
		);
		expect((await mine.json()).account.email).toBe('claire@exemple.fr');

		const byAdmin = await adminGet(asUser({ id: otherId, isAdmin: true }, { id: claireId }));
		expect((await byAdmin.json()).account.email).toBe('claire@exemple.fr');
		// A member asking for someone else's file is sent away, never given it.
		await expect(adminGet(asUser({ id: otherId, isAdmin: false }, { id: claireId }))).rejects.toMatchObject({
			status: 303
		});
	});
});
