/**
 * « Formation, part 1 » on the real database, a real SMTP server and the files driver: the programme sheet's
 * settings, questions to the trainer (private to the member and the admins, e-mails quieted, 20 a day under a
 * parallel burst), the positioning before module 1, the satisfaction survey hot and cold (two instances send one
 * e-mail), the certificat de réalisation (the duration of the completed modules only, one page) and the proof file
 * (every row the database holds, counted).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appDeps, useDepsForTests } from '../../src/lib/server/app';
import { settleBackgroundTasks } from '../../src/lib/server/lifecycle';
import * as courses from '../../src/lib/server/courses';
import {
	candidatures,
	coldSurveys,
	courseSettings,
	emails,
	memberships,
	moduleProgress,
	modules,
	positioningAnswers,
	questionMessages,
	questionNotices,
	questionThreads,
	quizAttempts,
	rateLimits,
	satisfactionAnswers,
	signIns,
	users,
	videoPositions
} from '../../src/lib/server/db/schema';
import { smtpTransport } from '../../src/lib/server/mail/transport';
import { FsStorage } from '../../src/lib/server/storage';
import { personalDataOf } from '../../src/lib/server/privacy/export';
import * as training from '../../src/lib/server/training';
import { coldToken, satisfactionCsv } from '../../src/lib/server/training/satisfaction';
import { GET as readSettings, PUT as saveSettings } from '../../src/routes/api/admin/course/+server';
import { GET as adminQuestions } from '../../src/routes/api/admin/questions/+server';
import { POST as askApi } from '../../src/routes/api/cours/questions/+server';
import { GET as threadApi } from '../../src/routes/api/cours/questions/[id=uuid]/+server';
import { POST as messageApi } from '../../src/routes/api/cours/questions/[id=uuid]/messages/+server';
import { POST as positioningApi } from '../../src/routes/api/cours/positionnement/+server';
import { POST as satisfactionApi } from '../../src/routes/api/cours/satisfaction/+server';
import { POST as coldApi } from '../../src/routes/(marketing)/avis/[token]/+server';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { startSmtp, type RunningSmtp } from '../helpers/smtp';

let database: TestDatabase;
let smtp: RunningSmtp;
/** The application's own signing secret: the cold survey's links are checked with it. */
let SECRET: string;
const DAY = 24 * 60 * 60 * 1000;

interface Person {
	id: string;
	email: string;
	name: string;
	isAdmin: boolean;
}
let admin: Person;
let otherAdmin: Person;
let lea: Person;
let marc: Person;
let mods: { id: string; slug: string; title: string; durationMinutes: number }[];

beforeAll(async () => {
	database = await createTestDatabase();
	smtp = await startSmtp();
	SECRET = appDeps().config.signingSecret;
	const storageRoot = mkdtempSync(path.join(tmpdir(), 'atelier-formation-'));
	useDepsForTests({
		db: database.db,
		storage: new FsStorage({
			root: storageRoot,
			bucket: 'private',
			origin: new URL('https://atelier.test'),
			secret: SECRET
		}),
		mail: { db: database.db, transport: smtpTransport(smtp.url), from: 'Atelier <no-reply@atelier.test>' }
	});
});
afterAll(async () => {
	useDepsForTests(null);
	await smtp.close();
	await database.dispose();
});

beforeEach(async () => {
	// E-mails a test left going in the background (an answer's notice) end before its rows go.
	await settleBackgroundTasks(5000);
	const db = database.db;
	for (const table of [
		questionMessages,
		questionThreads,
		questionNotices,
		satisfactionAnswers,
		coldSurveys,
		positioningAnswers,
		signIns,
		quizAttempts,
		videoPositions,
		moduleProgress,
		memberships,
		candidatures,
		emails,
		rateLimits,
		modules,
		users
	])
		await db.delete(table);
	await db.delete(courseSettings);
	smtp.received.length = 0;
	const people = await db
		.insert(users)
		.values([
			{ email: 'formatrice@atelier.test', name: 'Claire Formatrice', passwordHash: 'x', isAdmin: true },
			{ email: 'associe@atelier.test', name: 'Paul Associé', passwordHash: 'x', isAdmin: true },
			{ email: 'lea@exemple.fr', name: 'Léa Martin', passwordHash: 'x' },
			{ email: 'marc@exemple.fr', name: 'Marc Petit', passwordHash: 'x' }
		])
		.returning();
	[admin, otherAdmin, lea, marc] = people.map((p) => ({
		id: p.id,
		email: p.email,
		name: p.name,
		isAdmin: p.isAdmin
	})) as [Person, Person, Person, Person];
	await db.insert(memberships).values(
		[lea, marc].map((m, i) => ({
			userId: m.id,
			stripeSubscriptionId: `sub_${i}`,
			status: 'active',
			stateAt: new Date()
		}))
	);
	const inserted = await db
		.insert(modules)
		.values([
			{ slug: 'fondations', title: 'Les fondations', position: 0, published: true, durationMinutes: 45 },
			{ slug: 'murs', title: 'Monter un mur', position: 1, published: true, durationMinutes: 30 },
			{ slug: 'finitions', title: 'Les finitions', position: 2, published: true, durationMinutes: 60 }
		])
		.returning();
	mods = inserted.map((m) => ({
		id: m.id,
		slug: m.slug,
		title: m.title,
		durationMinutes: m.durationMinutes
	}));
	// The course's caches were read by another test: this one starts from its own rows.
	await courses.updateSettings({ title: 'Maçonnerie : les bases', sequential: false }, admin);
	await courses.reorder(
		mods.map((m) => m.id),
		admin
	);
});

type Handler = (event: unknown) => Promise<Response>;
function call(
	handler: unknown,
	method: string,
	url: string,
	routeId: string,
	user: Person | null,
	{ body, params = {} }: { body?: unknown; params?: Record<string, string> } = {}
) {
	const request = new Request(`https://atelier.test${url}`, {
		method,
		...(body !== undefined
			? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
			: {})
	});
	return (handler as Handler)({
		request,
		url: new URL(request.url),
		params,
		route: { id: routeId },
		locals: { user, session: null },
		getClientAddress: () => '10.40.0.2',
		setHeaders: () => {}
	});
}

const ask = (user: Person | null, body: unknown) =>
	call(askApi, 'POST', '/api/cours/questions', '/api/cours/questions', user, { body });
const readThread = (user: Person | null, id: string) =>
	call(threadApi, 'GET', `/api/cours/questions/${id}`, '/api/cours/questions/[id=uuid]', user, {
		params: { id }
	});
const postMessage = (user: Person | null, id: string, text: string) =>
	call(
		messageApi,
		'POST',
		`/api/cours/questions/${id}/messages`,
		'/api/cours/questions/[id=uuid]/messages',
		user,
		{
			body: { text },
			params: { id }
		}
	);
const complete = async (user: Person, ...indexes: number[]) => {
	for (const i of indexes) await courses.complete(user, mods[i]!.slug);
};
/** Waits for e-mails sent in the background (after the answer), then a moment for any that should not come. */
async function mailsSettle(count: number) {
	await smtp.waitFor(count);
	await new Promise((resolve) => setTimeout(resolve, 300));
	return smtp.received;
}
const to = (address: string) => smtp.received.filter((m) => m.envelopeTo.includes(address));

const pdfText = (bytes: Uint8Array) => {
	const file = path.join(mkdtempSync(path.join(tmpdir(), 'atelier-certificat-')), 'c.pdf');
	writeFileSync(file, bytes);
	return {
		// One space for every run of blanks and line breaks: a sentence reads whole whatever its lines.
		text: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
		pages: Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1])
	};
};

describe(`the programme sheet on ${driverName}`, () => {
	it('GET/PUT /api/admin/course: each field at the top level, a PUT keeps what it does not name, bad values 400', async () => {
		const read = async () =>
			(await call(readSettings, 'GET', '/api/admin/course', '/api/admin/course', admin)).json();
		const put = (body: unknown) =>
			call(saveSettings, 'PUT', '/api/admin/course', '/api/admin/course', admin, { body });
		expect(await read()).toMatchObject({
			answerDelayDays: 2,
			coldSurveyDays: 60,
			positioning: null,
			audience: '',
			price: ''
		});
		expect(
			(
				await put({
					audience: 'Artisans du bâtiment',
					price: '1 200 € HT par stagiaire',
					answerDelayDays: 3,
					positioning: {
						questions: [{ prompt: 'Avez-vous un site ?', choices: [{ text: 'Oui' }, { text: 'Non' }] }]
					}
				})
			).status
		).toBe(200);
		// A PUT naming one field keeps the others.
		expect((await put({ trainerName: 'Claire Formatrice' })).status).toBe(200);
		expect(await read()).toMatchObject({
			title: 'Maçonnerie : les bases',
			audience: 'Artisans du bâtiment',
			price: '1 200 € HT par stagiaire',
			answerDelayDays: 3,
			trainerName: 'Claire Formatrice',
			positioning: { questions: [{ prompt: 'Avez-vous un site ?' }] }
		});
		for (const bad of [
			{ answerDelayDays: 0 },
			{ answerDelayDays: 31 },
			{ answerDelayDays: 2.5 },
			{ coldSurveyDays: 366 },
			{ coldSurveyDays: -1 },
			{ price: 'a\u0001b' },
			{ positioning: { questions: [{ prompt: 'Seul choix', choices: [{ text: 'Oui' }] }] } },
			{ positioning: { questions: [] } },
			{ surveyQuestions: ['une', 'deux'] }
		]) {
			const answer = await put(bad);
			expect(answer.status, JSON.stringify(bad)).toBe(400);
			expect(answer.headers.get('content-type')).toContain('application/problem+json');
		}
		expect(await read()).toMatchObject({
			answerDelayDays: 3,
			coldSurveyDays: 60,
			price: '1 200 € HT par stagiaire'
		});
		// A member or a visitor reads nothing of it through the admin's API.
		expect((await call(readSettings, 'GET', '/api/admin/course', '/api/admin/course', lea)).status).toBe(403);
		expect((await call(readSettings, 'GET', '/api/admin/course', '/api/admin/course', null)).status).toBe(
			401
		);
	});

	it('lists the required fields left empty, and no attestation is issued without objectives', async () => {
		expect(await courses.missingSheet()).toEqual([
			'Objectifs',
			'Public visé',
			'Prérequis',
			'Délai d’accès',
			'Tarif',
			'Accessibilité (contact handicap)',
			'Nom du formateur',
			'Qualification du formateur'
		]);
		await complete(lea, 0, 1, 2);
		expect(await courses.attestationState(lea.id)).toMatchObject({ available: false, preparing: true });
		await expect(courses.attestationDownload(lea)).rejects.toMatchObject({ status: 409 });
		await courses.updateSettings({ objectives: 'Monter un mur droit.' }, admin);
		expect(await courses.missingSheet()).not.toContain('Objectifs');
		expect(await courses.attestationState(lea.id)).toMatchObject({ available: true, preparing: false });
	});

	it('publishes indicator 2’s figures only from 5 learners on', async () => {
		expect(await training.figures()).toBeNull();
		const more = await database.db
			.insert(users)
			.values([1, 2, 3].map((i) => ({ email: `m${i}@exemple.fr`, name: `Membre ${i}`, passwordHash: 'x' })))
			.returning();
		await database.db.insert(memberships).values(
			more.map((m, i) => ({
				userId: m.id,
				stripeSubscriptionId: `sub_more_${i}`,
				status: 'active',
				stateAt: new Date()
			}))
		);
		await complete(lea, 0, 1, 2);
		await complete(marc, 0);
		await database.db.insert(quizAttempts).values([
			{ userId: lea.id, moduleId: mods[0]!.id, score: 50, correct: 1, total: 2, passed: false, answers: [] },
			{ userId: lea.id, moduleId: mods[0]!.id, score: 100, correct: 2, total: 2, passed: true, answers: [] },
			{ userId: marc.id, moduleId: mods[0]!.id, score: 60, correct: 3, total: 5, passed: true, answers: [] }
		]);
		await training.answerHot(lea.id, { ratings: [5, 4, 5, 4, 5] });
		expect(await training.figures()).toEqual({
			learners: 5,
			completionRate: 20,
			// Each learner's best score per quiz: 100 and 60.
			quizAverage: 80,
			satisfactionAverage: 4.6,
			satisfactionResponseRate: 100
		});
	});
});

describe(`questions to the trainer on ${driverName}`, () => {
	it('a member asks about a module; only they and the admins read it; the admins are told once a quarter of an hour', async () => {
		const asked = await ask(lea, { module: 'murs', text: 'Quel **mortier** pour un mur de **clôture** ?' });
		expect(asked.status).toBe(201);
		const { id } = (await asked.json()) as { id: string };
		// By id too.
		expect((await ask(lea, { module: mods[0]!.id, text: 'Et pour les fondations ?' })).status).toBe(201);

		const thread = await (await readThread(lea, id)).json();
		expect(thread).toMatchObject({
			id,
			module: mods[1]!.id,
			messages: [{ from: 'member', text: 'Quel **mortier** pour un mur de **clôture** ?' }]
		});
		expect((await readThread(marc, id)).status).toBe(404);
		expect((await readThread(null, id)).status).toBe(401);
		expect((await postMessage(marc, id, 'Je réponds à sa place')).status).toBe(404);
		expect((await readThread(admin, id)).status).toBe(200);

		// Two questions within the quarter of an hour: one e-mail to each admin.
		await mailsSettle(2);
		expect(smtp.received.map((m) => m.envelopeTo[0]).sort()).toEqual([admin.email, otherAdmin.email].sort());
		expect(smtp.received[0]!.parsed.text).toContain('/admin/questions/');
		expect(smtp.received[0]!.parsed.text).not.toContain('mortier');

		const open = await (
			await call(adminQuestions, 'GET', '/api/admin/questions?state=open', '/api/admin/questions', admin)
		).json();
		expect(open.questions.map((q: { id: string }) => q.id)).toContain(id);
		expect(open.questions[0]).toMatchObject({ member: { name: 'Léa Martin' }, late: false });

		// The trainer answers: the member is told once, with the thread's link; the thread is answered.
		expect((await postMessage(admin, id, 'Un mortier **bâtard**.')).status).toBe(201);
		await mailsSettle(3);
		const [answer] = to(lea.email);
		expect(answer!.parsed.subject).toContain('Monter un mur');
		expect(answer!.parsed.text).toContain(`/questions/${id}`);
		const after = await (await readThread(lea, id)).json();
		expect(after.messages.map((m: { from: string }) => m.from)).toEqual(['member', 'trainer']);
		expect(after.awaitingSince).toBeNull();
		const answered = await (
			await call(adminQuestions, 'GET', '/api/admin/questions?state=answered', '/api/admin/questions', admin)
		).json();
		expect(answered.questions.map((q: { id: string }) => q.id)).toEqual([id]);
		expect(
			(await call(adminQuestions, 'GET', '/api/admin/questions?state=x', '/api/admin/questions', admin))
				.status
		).toBe(400);
		expect(
			(await call(adminQuestions, 'GET', '/api/admin/questions', '/api/admin/questions', lea)).status
		).toBe(403);

		// The member follows up: the thread awaits again; the follow-up counts the thread and its first answer.
		expect((await postMessage(lea, id, 'Merci ! Et le dosage ?')).status).toBe(201);
		const [row] = await database.db.select().from(questionThreads).where(eq(questionThreads.id, id));
		expect(row!.awaitingSince).not.toBeNull();
		expect(row!.firstAnsweredAt).not.toBeNull();
		expect((await training.questionFigures([lea.id])).get(lea.id)).toMatchObject({ questions: 2 });
	});

	it('refuses what is not a question: an unknown or unpublished module, an empty text, a visitor, a member without access', async () => {
		await database.db.update(modules).set({ published: false }).where(eq(modules.slug, 'finitions'));
		for (const [user, body, status] of [
			[lea, { module: 'inconnu', text: 'Bonjour' }, 404],
			[lea, { module: 'finitions', text: 'Bonjour' }, 404],
			[lea, { module: 'murs', text: '   ' }, 400],
			[lea, { module: 'murs', text: 'a'.repeat(5001) }, 400],
			[lea, { module: 'murs', text: 'nul\u0000' }, 400],
			[null, { module: 'murs', text: 'Bonjour' }, 401]
		] as const)
			expect((await ask(user, body)).status, JSON.stringify(body)).toBe(status);
		await database.db.update(memberships).set({ status: 'canceled' }).where(eq(memberships.userId, marc.id));
		expect((await ask(marc, { module: 'murs', text: 'Bonjour' })).status).toBe(403);
		expect(await database.db.select().from(questionThreads)).toHaveLength(0);
	});

	it('20 questions a day per member, then 429 in French — spent before the thread is written, under a parallel burst', async () => {
		const answers = await Promise.all(
			Array.from({ length: 26 }, (_, i) => ask(lea, { module: 'murs', text: `Question ${i}` }))
		);
		const statuses = answers.map((a) => a.status);
		expect(statuses.filter((s) => s === 201)).toHaveLength(20);
		expect(statuses.filter((s) => s === 429)).toHaveLength(6);
		const refused = answers.find((a) => a.status === 429)!;
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
		expect((await refused.json()).detail).toMatch(/[àéè]|Trop|tentative|réessa/i);
		expect(await database.db.select().from(questionThreads)).toHaveLength(20);
		// Another member has their own 20.
		expect((await ask(marc, { module: 'murs', text: 'Ma question' })).status).toBe(201);
	});

	it('an attachment is a PDF or an image by its bytes, 10 MB at most; only the thread’s readers get it', async () => {
		const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
		const { id } = await training.ask(lea, 'murs', 'Mon plan ci-joint', { filename: 'plan.pdf', data: pdf });
		const thread = await training.thread(id, lea);
		const message = thread.messages[0]!;
		expect(message.attachment).toEqual({ name: 'plan.pdf', type: 'application/pdf' });
		const request = { method: 'GET', header: () => null };
		const answer = await training.attachmentAnswer(request, message.id, admin);
		expect(answer.headers['content-disposition']).toContain('attachment');
		await expect(training.attachmentAnswer(request, message.id, marc)).rejects.toMatchObject({ status: 404 });
		await expect(
			training.ask(lea, 'murs', 'Un script', {
				filename: 'plan.pdf',
				data: Buffer.from('<script>alert(1)</script>')
			})
		).rejects.toMatchObject({ status: 415 });
		await expect(
			training.ask(lea, 'murs', 'Trop lourd', {
				filename: 'plan.pdf',
				data: Buffer.alloc(10 * 1024 * 1024 + 1)
			})
		).rejects.toMatchObject({ status: 400 });
		// Nothing half-written: the refused ones left no thread.
		expect(await database.db.select().from(questionThreads)).toHaveLength(1);
	});

	it('a thread past the promised working days is late, and counted for the dashboard', async () => {
		const { id } = await training.ask(lea, 'murs', 'Une question ancienne');
		await database.db
			.update(questionThreads)
			.set({ awaitingSince: new Date(Date.now() - 10 * DAY) })
			.where(eq(questionThreads.id, id));
		await training.ask(marc, 'murs', 'Une question fraîche');
		expect(await training.countLateQuestions()).toBe(1);
		const [late] = await training.threadsForAdmins('open');
		expect(late).toMatchObject({ id, late: true });
	});
});

describe(`the positioning at entry on ${driverName}`, () => {
	const POSITIONING = {
		questions: [
			{ prompt: 'Avez-vous un site internet ?', choices: [{ text: 'Oui' }, { text: 'Non' }] },
			{
				prompt: 'Où vos clients vous trouvent-ils ?',
				choices: [{ text: 'Bouche à oreille' }, { text: 'Google' }, { text: 'Réseaux sociaux' }]
			}
		]
	};
	const answer = (user: Person, answers: unknown) =>
		call(positioningApi, 'POST', '/api/cours/positionnement', '/api/cours/positionnement', user, {
			body: { answers }
		});

	it('comes before module 1: page, completion and quiz answer 403 until it is answered, once', async () => {
		expect((await answer(lea, [[0], [1]])).status).toBe(404);
		await courses.updateSettings({ positioning: POSITIONING }, admin);
		await expect(courses.page('fondations', lea)).rejects.toBeInstanceOf(courses.PositioningRequiredError);
		await expect(courses.complete(lea, 'fondations')).rejects.toMatchObject({ status: 403 });
		await expect(courses.saveVideoPosition(lea, 'fondations', 12)).rejects.toMatchObject({ status: 403 });
		// An admin reads everything.
		expect((await courses.page('fondations', admin)).module.slug).toBe('fondations');

		for (const bad of [[[0]], [[0], []], [[0], [3]], [[0], [1, 1]], [[2], [0]], 'oui'])
			expect((await answer(lea, bad)).status, JSON.stringify(bad)).toBe(400);
		expect(await database.db.select().from(positioningAnswers)).toHaveLength(0);

		expect((await answer(lea, [[1], [2, 0]])).status).toBe(201);
		expect((await answer(lea, [[0], [0]])).status).toBe(409);
		expect((await courses.page('fondations', lea)).module.slug).toBe('fondations');
		await courses.complete(lea, 'fondations');
		// Marc has not answered: still closed for him.
		await expect(courses.page('fondations', marc)).rejects.toMatchObject({ status: 403 });

		// The trainer reads the answers as asked, even once the questionnaire changes.
		await courses.updateSettings({ positioning: { questions: [POSITIONING.questions[0]!] } }, admin);
		expect(await courses.positioningReport(lea.id)).toMatchObject({
			questions: [
				{ prompt: 'Avez-vous un site internet ?', chosen: ['Non'] },
				{ prompt: 'Où vos clients vous trouvent-ils ?', chosen: ['Bouche à oreille', 'Réseaux sociaux'] }
			]
		});
	});
});

describe(`the satisfaction survey on ${driverName}`, () => {
	const hot = (user: Person, body: unknown) =>
		call(satisfactionApi, 'POST', '/api/cours/satisfaction', '/api/cours/satisfaction', user, { body });

	it('hot: at the end of the course, once; « Plus tard » is recorded as skipped', async () => {
		await complete(lea, 0, 1);
		expect((await hot(lea, { ratings: [5, 5, 5, 5, 5] })).status).toBe(409);
		await complete(lea, 2);
		for (const bad of [
			{ ratings: [5, 5, 5, 5] },
			{ ratings: [0, 5, 5, 5, 5] },
			{ ratings: [5, 5, 5, 5, 6] },
			{ skip: false }
		])
			expect((await hot(lea, bad)).status, JSON.stringify(bad)).toBe(400);
		expect((await hot(lea, { ratings: [5, 4, 3, 4, 5], comment: '=HYPERLINK("x")' })).status).toBe(201);
		expect((await hot(lea, { skip: true })).status).toBe(409);
		await complete(marc, 0, 1, 2);
		expect((await hot(marc, { skip: true })).status).toBe(201);
		expect(await training.hotDone(marc.id)).toBe(true);
		const results = await training.satisfactionResults();
		expect(results.hot).toMatchObject({ answers: 1, skipped: 1, overall: 4.2, averages: [5, 4, 3, 4, 5] });
		// The CSV defuses the formula a comment holds; read a row at a time (its walk by keys), it is the same file.
		const csv = await new Response(training.satisfactionCsv()).text();
		expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
		expect(csv.trim().split('\r\n')).toHaveLength(3);
		expect(await new Response(satisfactionCsv(appDeps().db, 1)).text()).toBe(csv);
	});

	it('cold: two instances send one e-mail and one reminder per member; the link works signed out, once, 30 days', async () => {
		await courses.updateSettings({ coldSurveyDays: 10 }, admin);
		await complete(lea, 0, 1, 2);
		await complete(marc, 0, 1);
		const finishedAt = new Date(Date.now() - 11 * DAY);
		await database.db.update(moduleProgress).set({ completedAt: finishedAt });
		const deps = {
			db: database.db,
			mail: { db: database.db, transport: smtpTransport(smtp.url), from: 'Atelier <no-reply@atelier.test>' },
			origin: new URL('https://atelier.test'),
			signingSecret: SECRET
		};
		const { sendColdSurveys } = await import('../../src/lib/server/training/satisfaction');
		const now = new Date();
		// Two instances' hourly runs at the same moment, twice: Léa (finished) gets one e-mail; Marc did not finish.
		const runs = await Promise.all([1, 2, 3, 4].map(() => sendColdSurveys(deps, 10, now)));
		expect(runs.reduce((sum, r) => sum + r.sent, 0)).toBe(1);
		await mailsSettle(1);
		expect(smtp.received.map((m) => m.envelopeTo[0])).toEqual([lea.email]);
		const link = /https:\/\/atelier\.test\/avis\/(\S+)/.exec(smtp.received[0]!.parsed.text ?? '')?.[1];
		expect(link).toBeTruthy();

		// The reminder 7 days later, once, from two instances.
		const week = new Date(now.getTime() + 7 * DAY + 1000);
		const reminders = await Promise.all([1, 2].map(() => sendColdSurveys(deps, 10, week)));
		expect(reminders.reduce((sum, r) => sum + r.reminded, 0)).toBe(1);
		await mailsSettle(2);
		expect(smtp.received[1]!.parsed.subject).toContain('Rappel');
		expect(
			(await Promise.all([1, 2].map(() => sendColdSurveys(deps, 10, new Date(week.getTime() + DAY))))).every(
				(r) => r.sent === 0 && r.reminded === 0
			)
		).toBe(true);

		// The link, signed out: JSON, once; then 410. A forged one is 404.
		const post = (token: string, body: unknown) =>
			call(coldApi, 'POST', `/avis/${token}`, '/(marketing)/avis/[token]', null, { body, params: { token } });
		expect((await post(link!, { ratings: [4, 4, 5, 3, 4] })).status).toBe(201);
		expect((await post(link!, { ratings: [1, 1, 1, 1, 1] })).status).toBe(410);
		expect(
			(await post(`${marc.id}.${link!.split('.').slice(1).join('.')}`, { ratings: [1, 1, 1, 1, 1] })).status
		).toBe(404);
		expect((await post('pas-un-lien', { ratings: [1, 1, 1, 1, 1] })).status).toBe(404);
		const [cold] = await database.db
			.select()
			.from(satisfactionAnswers)
			.where(eq(satisfactionAnswers.kind, 'cold'));
		expect(cold).toMatchObject({ userId: lea.id, ratings: [4, 4, 5, 3, 4] });
		// No reminder to who answered.
		await database.db.update(coldSurveys).set({ remindedAt: null });
		expect((await sendColdSurveys(deps, 10, week)).reminded).toBe(0);

		// The public form is limited per address, counted before the link is read: a burst of 35 → 30 read, 5 × 429.
		await database.db.delete(rateLimits);
		const burst = await Promise.all(
			Array.from({ length: 35 }, () => post('pas-un-lien', { ratings: [1, 1, 1, 1, 1] }))
		);
		expect(burst.filter((a) => a.status === 404)).toHaveLength(30);
		expect(burst.filter((a) => a.status === 429)).toHaveLength(5);
		await database.db.delete(rateLimits);

		// A link 30 days old has expired.
		const old = coldToken(SECRET, marc.id, new Date(Date.now() - 31 * DAY));
		expect((await post(old, { ratings: [3, 3, 3, 3, 3] })).status).toBe(410);
	});
});

describe(`the certificat de réalisation and the proof file on ${driverName}`, () => {
	it('certifies the duration of the completed modules only, on one page, with the learner’s company', async () => {
		await expect(training.certificate(lea.id)).rejects.toMatchObject({ status: 409 });
		await database.db.insert(candidatures).values({
			firstName: 'Léa',
			lastName: 'Martin',
			email: lea.email,
			phone: '0612345678',
			postalCode: '69001',
			city: 'Lyon',
			trade: 'macon',
			company: 'Martin Maçonnerie',
			siret: '73282932000074',
			yearsExperience: 5,
			teamSize: 2,
			goals: ['demandes'],
			presence: ['aucune'],
			hoursPerWeek: 3,
			motivation: 'x'.repeat(60),
			consentAt: new Date(),
			status: 'enrolled',
			userId: lea.id
		} as never);
		await complete(lea, 0, 2);
		const { text, pages } = pdfText(await training.certificate(lea.id));
		expect(pages).toBe(1);
		expect(text).toContain('Certificat de réalisation');
		expect(text).toContain('Léa Martin');
		expect(text).toContain('Martin Maçonnerie');
		expect(text).toContain('Maçonnerie : les bases');
		expect(text).toContain('action de formation');
		// 45 + 60 minutes, not the course's 135.
		expect(text).toMatch(/1,75 heure/);
		expect(text).toContain('temps estimé pour les réaliser');
	});

	it('the proof file holds every row the database holds for the learner, one CSV each, and the certificat', async () => {
		await database.db.insert(signIns).values([
			{ userId: lea.id, at: new Date('2026-05-01T08:00:00Z') },
			{ userId: lea.id, at: new Date('2026-05-02T08:00:00Z') },
			{ userId: lea.id, at: new Date('2026-05-03T08:00:00Z') },
			{ userId: marc.id, at: new Date('2026-05-03T08:00:00Z') }
		]);
		await courses.updateSettings(
			{ positioning: { questions: [{ prompt: 'Un site ?', choices: [{ text: 'Oui' }, { text: 'Non' }] }] } },
			admin
		);
		await courses.answerPositioning(lea.id, [[1]]);
		await complete(lea, 0, 1, 2);
		await database.db.insert(videoPositions).values([
			{ userId: lea.id, moduleId: mods[0]!.id, seconds: 120 },
			{ userId: lea.id, moduleId: mods[1]!.id, seconds: 30 }
		]);
		await database.db.insert(quizAttempts).values(
			[40, 80, 100].map((score) => ({
				userId: lea.id,
				moduleId: mods[0]!.id,
				score,
				correct: score / 20,
				total: 5,
				passed: score >= 80,
				answers: []
			}))
		);
		const { id } = await training.ask(lea, 'murs', 'Question ; avec "guillemets"\net retour');
		await training.reply(id, admin, 'Réponse');
		await training.answerHot(lea.id, { ratings: [5, 5, 4, 4, 5], comment: 'Bien' });

		const tables = await training.proofTables(lea.id);
		const rows = (name: string) => {
			const csv = tables[name]!;
			// Quoted cells may hold line breaks: rows are counted by the parser's rule (CRLF outside quotes).
			let count = 0;
			let quoted = false;
			for (let i = 0; i < csv.length; i++) {
				if (csv[i] === '"') quoted = !quoted;
				else if (!quoted && csv[i] === '\r' && csv[i + 1] === '\n') count++;
			}
			return count - 1;
		};
		const db = database.db;
		expect(rows('connexions.csv')).toBe(
			(await db.select().from(signIns).where(eq(signIns.userId, lea.id))).length
		);
		expect(rows('connexions.csv')).toBe(3);
		expect(rows('modules-termines.csv')).toBe(
			(await db.select().from(moduleProgress).where(eq(moduleProgress.userId, lea.id))).length
		);
		expect(rows('positions-video.csv')).toBe(2);
		expect(rows('quiz.csv')).toBe(
			(await db.select().from(quizAttempts).where(eq(quizAttempts.userId, lea.id))).length
		);
		expect(rows('positionnement.csv')).toBe(1);
		expect(rows('questions-reponses.csv')).toBe((await db.select().from(questionMessages)).length);
		expect(rows('satisfaction.csv')).toBe(1);
		expect(tables['positionnement.csv']).toContain('Non');

		// The member's own copy of their data (RGPD art. 15) holds the same training file.
		const own = await personalDataOf(database.db, lea.id);
		expect(own.signIns).toHaveLength(3);
		expect(own.positioning).toMatchObject({ questions: [{ prompt: 'Un site ?', chosen: ['Non'] }] });
		expect(own.questions.map((m) => m.from)).toEqual(['member', 'trainer']);
		expect(own.satisfaction).toMatchObject([{ moment: 'hot', ratings: [5, 5, 4, 4, 5], comment: 'Bien' }]);

		const archive = await training.proofArchive(lea.id);
		const file = path.join(mkdtempSync(path.join(tmpdir(), 'atelier-preuves-')), 'p.zip');
		writeFileSync(file, archive);
		const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').sort();
		expect(listing).toEqual([...Object.keys(tables), 'certificat-de-realisation.pdf'].sort());
		expect(execFileSync('unzip', ['-p', file, 'quiz.csv'], { encoding: 'utf8' })).toBe(tables['quiz.csv']);
	});

	it('the sign-ins are kept when a session is made, never the address', async () => {
		const { createSession } = await import('../../src/lib/server/auth/session-open');
		await createSession(database.db, 'jeton-de-session-de-test', lea.id, new Date(), {
			userAgent: 'Firefox',
			address: '203.0.113.9'
		});
		const rows = await database.db.select().from(signIns).where(eq(signIns.userId, lea.id));
		expect(rows).toHaveLength(1);
		expect(Object.keys(rows[0]!).sort()).toEqual(['at', 'id', 'userId']);
	});
});
