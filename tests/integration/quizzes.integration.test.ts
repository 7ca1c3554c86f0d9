/**
 * Quizzes and a chosen order (issue « Learning, part 3 », points 1 and 2), on the real database: the modules API's
 * `quiz` and `/api/admin/course`, grading on the server with nothing of the answers before an attempt, the limit
 * spent before grading (a burst of 30 grades one, on PostgreSQL too), passing as the one way to complete a module
 * with a quiz, and « Ordre imposé » closing a module's page, files, quiz, completion and place until the one before
 * is done.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
	company,
	companyFileProgrammeName,
	onProgrammeRenamed,
	showCompany,
	showProgrammeName
} from '../../src/lib/company';
import { candidatureApproval } from '../../src/lib/server/mail/templates/candidature-approval';
import { memberWelcome } from '../../src/lib/server/mail/templates/member-welcome';
import { useDepsForTests } from '../../src/lib/server/app';
import { ReaderCache } from '../../src/lib/server/courses/reader-cache';
import * as service from '../../src/lib/server/courses/service';
import {
	auditEvents,
	courseFiles,
	courseSettings,
	moduleProgress,
	modules,
	quizAttempts,
	rateLimits,
	users
} from '../../src/lib/server/db/schema';
import { outboxTransport } from '../../src/lib/server/mail/transport';
import { GET as readSettings, PUT as saveSettings } from '../../src/routes/api/admin/course/+server';
import { POST as createModule } from '../../src/routes/api/admin/modules/+server';
import { PUT as updateModule } from '../../src/routes/api/admin/modules/[id=uuid]/+server';
import { personalDataOf } from '../../src/lib/server/privacy/export';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
let member: { id: string; isAdmin: false };
let readers: ReaderCache;
const admin = { id: '00000000-0000-4000-8000-000000000001', email: 'a@x.fr', name: 'Admin', isAdmin: true };

const QUIZ = {
	passPercent: 60,
	questions: [
		{
			prompt: 'Quel mortier pour un mur porteur ?',
			explanation: 'Le plâtre ne tient pas à l’humidité.',
			choices: [
				{ text: 'Un mortier de ciment', correct: true },
				{ text: 'Du plâtre', correct: false }
			]
		},
		{
			prompt: 'Qu’est-ce qui se vérifie au niveau ?',
			choices: [
				{ text: 'L’aplomb', correct: true },
				{ text: 'La couleur', correct: false },
				{ text: 'L’horizontalité', correct: true }
			]
		},
		{
			prompt: 'Combien de jours avant de charger un béton courant ?',
			explanation: 'Il atteint l’essentiel de sa résistance en 28 jours.',
			choices: [
				{ text: '2', correct: false },
				{ text: '28', correct: true }
			]
		}
	]
};

beforeAll(async () => {
	database = await createTestDatabase();
	useDepsForTests({
		db: database.db,
		mail: {
			db: database.db,
			transport: outboxTransport(mkdtempSync(path.join(tmpdir(), 'atelier-outbox-'))),
			from: 'Atelier <no-reply@atelier.test>'
		}
	});
	const [row] = await database.db
		.insert(users)
		.values({ email: 'apprenti@exemple.fr', name: 'Apprenti', passwordHash: 'x' })
		.returning();
	member = { id: row!.id, isAdmin: false };
});
afterAll(async () => {
	useDepsForTests(null);
	await database.dispose();
});
beforeEach(async () => {
	await database.db.delete(quizAttempts);
	await database.db.delete(moduleProgress);
	await database.db.delete(modules);
	await database.db.delete(courseFiles);
	await database.db.delete(courseSettings);
	await database.db.delete(rateLimits);
	readers = new ReaderCache();
});

type Handler = (event: unknown) => Promise<Response>;
function call(handler: unknown, method: string, url: string, routeId: string, body?: unknown, id?: string) {
	const request = new Request(`http://localhost${url}`, {
		method,
		...(body !== undefined
			? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
			: {})
	});
	return (handler as Handler)({
		request,
		url: new URL(request.url),
		params: id ? { id } : {},
		route: { id: routeId },
		locals: { user: admin, session: null },
		getClientAddress: () => '10.40.0.1'
	});
}
const moduleApi = (body: unknown) =>
	call(createModule, 'POST', '/api/admin/modules', '/api/admin/modules', body);

/** Two published modules, the first with the quiz. */
async function course() {
	const first = await service.createModule(
		database.db,
		readers,
		{ title: 'Les murs', published: true, content: '# Les murs', quiz: QUIZ },
		admin
	);
	const second = await service.createModule(
		database.db,
		readers,
		{ title: 'La toiture', published: true, content: '# La toiture' },
		admin
	);
	return { first, second };
}

/** The member's answers as the module page's form sends them. */
function answers(chosen: Record<string, number[]>): FormData {
	const form = new FormData();
	for (const [question, values] of Object.entries(chosen))
		for (const value of values) form.append(question, String(value));
	return form;
}
const RIGHT = { q0: [0], q1: [0, 2], q2: [1] };
const ONE_RIGHT = { q0: [0], q1: [0], q2: [0] };

describe(`quizzes on ${driverName}`, () => {
	it('the API takes a quiz and refuses one that is not: no question, one choice, no right answer, 21 questions, a bad threshold', async () => {
		const created = await moduleApi({ title: 'Avec quiz', quiz: QUIZ });
		expect(created.status).toBe(201);
		const saved = await created.json();
		expect(saved.quiz).toEqual(QUIZ);

		const refused = async (quiz: unknown) => {
			const answer = await moduleApi({ title: `Refusé ${Math.random()}`, quiz });
			expect(answer.status).toBe(400);
			const problem = await answer.json();
			return JSON.stringify(problem.errors);
		};
		expect(await refused({ passPercent: 80, questions: [] })).toContain('au moins une question');
		const question = QUIZ.questions[0]!;
		expect(
			await refused({ passPercent: 80, questions: [{ ...question, choices: [question.choices[0]] }] })
		).toContain('2 réponses au moins');
		expect(
			await refused({
				passPercent: 80,
				questions: [{ ...question, choices: question.choices.map((c) => ({ ...c, correct: false })) }]
			})
		).toContain('au moins une bonne réponse');
		expect(
			await refused({ passPercent: 80, questions: Array.from({ length: 21 }, () => question) })
		).toContain('20 questions au plus');
		expect(await refused({ passPercent: 0, questions: [question] })).toContain('entre 1 et 100');
		expect(await refused('oui')).toContain('Quiz');
		// Nothing half-written: only the first module exists.
		expect(await database.db.select().from(modules)).toHaveLength(1);

		// Taken off with null; the trail says how many questions, never which answers are right.
		const removed = await call(
			updateModule,
			'PUT',
			`/api/admin/modules/${saved.id}`,
			'/api/admin/modules/[id=uuid]',
			{ quiz: null },
			saved.id
		);
		expect((await removed.json()).quiz).toBeNull();
		const trail = JSON.stringify(await database.db.select().from(auditEvents));
		expect(trail).toContain('quizQuestions');
		expect(trail).not.toContain('Un mortier de ciment');
	});

	it('the page holds the questions but no right answer and no explanation before an attempt', async () => {
		const { first } = await course();
		const page = await service.modulePage(database.db, readers, first.slug, member);
		expect(page.quiz).toMatchObject({ passPercent: 60, last: null, passed: false });
		expect(page.quiz!.questions.map((q) => q.multiple)).toEqual([false, true, false]);
		const serialised = JSON.stringify(page.quiz);
		expect(serialised).not.toMatch(/correct|explanation/);
		expect(serialised).not.toContain('humidité');
		expect(serialised).toContain('Du plâtre');
	});

	it('a failed attempt says each question right or wrong with its explanation; passing completes the module, and the button does not', async () => {
		const { first } = await course();
		await expect(service.completeModule(database.db, readers, member, first.slug)).rejects.toMatchObject({
			status: 409,
			message: 'Ce module se termine en réussissant son quiz.'
		});

		const failed = await service.answerQuiz(database.db, readers, member, first.slug, answers(ONE_RIGHT));
		expect(failed).toMatchObject({ score: 33, passed: false, correct: 1, total: 3, passPercent: 60 });
		expect(failed.questions.map((q) => q.right)).toEqual([true, false, false]);
		expect(failed.questions[2]!.explanation).toContain('28 jours');
		expect((await service.progressOf(database.db, readers, member.id)).completed).toBe(0);

		// The next attempt waits 30 s: the limit's window is moved back as if they had passed.
		await database.db.delete(rateLimits);
		const passed = await service.answerQuiz(database.db, readers, member, first.slug, answers(RIGHT));
		expect(passed).toMatchObject({ score: 100, passed: true, correct: 3 });
		expect((await service.progressOf(database.db, readers, member.id)).completed).toBe(1);
		const page = await service.modulePage(database.db, readers, first.slug, member);
		expect(page.completed).toBe(true);
		expect(page.quiz).toMatchObject({ passed: true, last: { score: 100, passed: true } });
		await expect(service.undoModule(database.db, readers, member.id, first.slug)).rejects.toMatchObject({
			status: 409
		});

		const kept = await database.db.select().from(quizAttempts);
		expect(kept.map((a) => [a.score, a.passed]).sort()).toEqual([
			[100, true],
			[33, false]
		]);
		// Kept for the member's data file, with what they ticked.
		const data = await personalDataOf(database.db, member.id);
		expect(data!.quizAttempts).toHaveLength(2);
		expect(data!.quizAttempts[0]).toMatchObject({ module: first.slug, score: 33, answers: [[0], [0], [0]] });
	});

	it('answers that name no choice are the client’s mistake (400) and spend nothing; blank questions are wrong', async () => {
		const { first } = await course();
		for (const bad of [{ q0: [7] }, { q0: [0, 0] }, { q5: [0] }] as Record<string, number[]>[]) {
			await expect(
				service.answerQuiz(database.db, readers, member, first.slug, answers(bad))
			).rejects.toMatchObject({ status: 400 });
		}
		const odd = new FormData();
		odd.append('q0', 'x\u0000');
		await expect(service.answerQuiz(database.db, readers, member, first.slug, odd)).rejects.toMatchObject({
			status: 400
		});
		expect(await database.db.select().from(rateLimits)).toHaveLength(0);
		const blank = await service.answerQuiz(database.db, readers, member, first.slug, answers({}));
		expect(blank).toMatchObject({ score: 0, passed: false });
		// A single-answer question given two choices is wrong, not an error.
		await database.db.delete(rateLimits);
		const two = await service.answerQuiz(database.db, readers, member, first.slug, answers({ q0: [0, 1] }));
		expect(two.questions[0]!.right).toBe(false);
	});

	it('one attempt per 30 s per member and module, spent before grading: a burst of 30 right answers grades one', async () => {
		const { first } = await course();
		const burst = await Promise.allSettled(
			Array.from({ length: 30 }, () =>
				service.answerQuiz(database.db, readers, member, first.slug, answers(RIGHT))
			)
		);
		const graded = burst.filter((r) => r.status === 'fulfilled');
		expect(graded).toHaveLength(1);
		for (const refused of burst.filter((r) => r.status === 'rejected'))
			expect((refused as PromiseRejectedResult).reason).toMatchObject({ status: 429 });
		expect(await database.db.select().from(quizAttempts)).toHaveLength(1);
		expect(await database.db.select().from(moduleProgress)).toHaveLength(1);
	});

	it('a module without a quiz has none to answer (404), and a module with one is not completed by the button', async () => {
		const { second } = await course();
		await expect(
			service.answerQuiz(database.db, readers, member, second.slug, answers(RIGHT))
		).rejects.toMatchObject({ status: 404 });
	});
});

describe(`« Ordre imposé » on ${driverName}`, () => {
	it('GET/PUT /api/admin/course: the programme’s title and the order, checked and audited', async () => {
		const read = async () => {
			const { title, sequential, objectives } = await (
				await call(readSettings, 'GET', '/api/admin/course', '/api/admin/course')
			).json();
			return { title, sequential, objectives };
		};
		expect(await read()).toEqual({ title: company.training.name, sequential: false, objectives: '' });
		const save = (body: unknown) => call(saveSettings, 'PUT', '/api/admin/course', '/api/admin/course', body);
		const objectives = 'Présenter ses chantiers en ligne.\nObtenir des avis clients.';
		expect((await save({ title: 'Maçonnerie : les bases', sequential: true, objectives })).status).toBe(200);
		expect(await read()).toEqual({ title: 'Maçonnerie : les bases', sequential: true, objectives });
		for (const bad of [
			{ title: '', sequential: true },
			{ title: 'x', sequential: 'oui' },
			{ title: 'x', sequential: true, objectives: 'a\u0000b' },
			{ title: 'x', sequential: true, objectives: 'a'.repeat(1201) },
			'texte'
		]) {
			const answer = await save(bad);
			expect(answer.status).toBe(400);
		}
		expect(await read()).toEqual({ title: 'Maçonnerie : les bases', sequential: true, objectives });
		// Without objectives (an older client's PUT), they are kept.
		expect((await save({ title: 'Maçonnerie : les bases', sequential: false })).status).toBe(200);
		expect(await read()).toEqual({ title: 'Maçonnerie : les bases', sequential: false, objectives });
		const trail = await database.db.select().from(auditEvents);
		expect(trail.filter((e) => e.kind === 'course.updated')).toHaveLength(2);
	});

	it('one programme name: the one set with the course is what the company file, e-mails and every instance say', async () => {
		const fileName = companyFileProgrammeName();
		expect(await service.courseSettingsOf(database.db, readers)).toMatchObject({
			title: fileName,
			sequential: false,
			objectives: ''
		});
		expect(company.training.name).toBe(fileName);
		const named = 'Maçonnerie : le programme complet';
		// The cached pages that show it are told (content/index.ts purges them), once per change.
		let renamed = 0;
		const stop = onProgrammeRenamed(() => renamed++);
		await service.updateCourseSettings(database.db, readers, { title: named, sequential: false }, admin);
		expect(company.training.name).toBe(named);
		await service.updateCourseSettings(database.db, readers, { title: named, sequential: true }, admin);
		expect(renamed).toBe(1);
		stop();
		for (const mail of [
			memberWelcome('Julie', 'https://exemple.fr/x'),
			candidatureApproval({ firstName: 'Julie' }, 'https://exemple.fr/p')
		])
			expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toContain(fileName);
		expect(memberWelcome('Julie', 'https://exemple.fr/x').subject).toContain(named);
		// A new revision of the company file (published in /admin/contenu) keeps the course's name.
		showCompany({ ...structuredClone(company), training: { ...company.training, name: 'Autre nom' } });
		expect(company.training.name).toBe(named);
		expect(companyFileProgrammeName()).toBe('Autre nom');
		// Another instance (its own reader cache) reads the name at its first look at the settings.
		showProgrammeName(null);
		await service.courseSettingsOf(database.db, new ReaderCache());
		expect(company.training.name).toBe(named);
		// A database without the course's settings: the company file's name again.
		await database.db.delete(courseSettings);
		await service.courseSettingsOf(database.db, new ReaderCache());
		expect(company.training.name).toBe('Autre nom');
		showCompany({ ...structuredClone(company), training: { ...company.training, name: fileName } });
	});

	it('closes the second module’s page, files, quiz, completion and place until the first is done', async () => {
		const first = await service.createModule(
			database.db,
			readers,
			{ title: 'Les fondations', published: true, content: '# Fondations' },
			admin
		);
		const videoPath = 'course/00000000-0000-4000-8000-00000000abcd.mp4';
		await database.db.insert(courseFiles).values({
			path: videoPath,
			kind: 'video',
			contentType: 'video/mp4',
			size: 1000,
			durationSeconds: 12
		});
		const second = await service.createModule(
			database.db,
			readers,
			{
				title: 'Les murs',
				published: true,
				content: '# Secret des murs',
				quiz: QUIZ,
				video: `storage:${videoPath}`
			},
			admin
		);
		await service.updateCourseSettings(database.db, readers, { title: 'Programme', sequential: true }, admin);

		const page = await service.modulePage(database.db, readers, second.slug, member);
		const fondations = { slug: first.slug, title: 'Les fondations' };
		expect(page.blockedBy).toEqual({ after: fondations, resume: fondations });
		expect(page.html).toBeNull();
		expect(page.media).toBeNull();
		expect(page.quiz).toBeNull();
		const closed = { status: 403, first: { slug: first.slug } };
		await expect(service.courseMedia(database.db, readers, videoPath, member)).rejects.toMatchObject(closed);
		await expect(
			service.answerQuiz(database.db, readers, member, second.slug, answers(RIGHT))
		).rejects.toMatchObject(closed);
		await expect(service.completeModule(database.db, readers, member, second.slug)).rejects.toMatchObject(
			closed
		);
		await expect(
			service.saveVideoPosition(database.db, readers, member, second.slug, 5)
		).rejects.toMatchObject(closed);
		expect(await database.db.select().from(rateLimits)).toHaveLength(0);
		// The first module is open, and admins read everything.
		expect((await service.modulePage(database.db, readers, first.slug, member)).blockedBy).toBeNull();
		expect((await service.modulePage(database.db, readers, second.slug, admin)).blockedBy).toBeNull();

		await service.completeModule(database.db, readers, member, first.slug);
		const opened = await service.modulePage(database.db, readers, second.slug, member);
		expect(opened.blockedBy).toBeNull();
		expect(opened.html).toContain('Secret des murs');
		expect(await service.courseMedia(database.db, readers, videoPath, member)).toEqual({
			objectPath: videoPath
		});

		// Turned off, every module opens again.
		await service.undoModule(database.db, readers, member.id, first.slug);
		expect((await service.modulePage(database.db, readers, second.slug, member)).blockedBy).not.toBeNull();
		await service.updateCourseSettings(
			database.db,
			readers,
			{ title: 'Programme', sequential: false },
			admin
		);
		expect((await service.modulePage(database.db, readers, second.slug, member)).blockedBy).toBeNull();
	});

	it('locks show: each closed module says what it opens after, and sends to the first one left, never to a closed one', async () => {
		const made = [];
		for (const title of ['Un', 'Deux', 'Trois', 'Quatre'])
			made.push(
				await service.createModule(
					database.db,
					readers,
					{ title, published: true, content: `# ${title}` },
					admin
				)
			);
		const [one, two, three, four] = made.map((m) => ({ slug: m.slug, title: m.title }));
		await service.updateCourseSettings(database.db, readers, { title: 'Programme', sequential: true }, admin);
		const listed = async () =>
			(await service.progressOf(database.db, readers, member.id)).modules.map((m) => [m.title, m.opensAfter]);
		expect(await listed()).toEqual([
			['Un', null],
			['Deux', 'Un'],
			['Trois', 'Deux'],
			['Quatre', 'Trois']
		]);
		// Module 3 opened first: it opens after 2, and the way on is module 1 (2 is closed too).
		const third = await service.modulePage(database.db, readers, three!.slug, member);
		expect(third.blockedBy).toEqual({ after: two, resume: one });
		expect(third.previous).toEqual({ ...two, opensAfter: 'Un' });
		expect(third.next).toEqual({ ...four, opensAfter: 'Trois' });
		await expect(service.completeModule(database.db, readers, member, three!.slug)).rejects.toMatchObject({
			status: 403,
			after: two,
			first: one
		});
		// Module 1's page: its next one is closed until it is done, then open.
		expect((await service.modulePage(database.db, readers, one!.slug, member)).next).toEqual({
			...two,
			opensAfter: 'Un'
		});
		await service.completeModule(database.db, readers, member, one!.slug);
		expect((await service.modulePage(database.db, readers, one!.slug, member)).next).toEqual({
			...two,
			opensAfter: null
		});
		expect((await service.modulePage(database.db, readers, three!.slug, member)).blockedBy).toEqual({
			after: two,
			resume: two
		});
		expect(await listed()).toEqual([
			['Un', null],
			['Deux', null],
			['Trois', 'Deux'],
			['Quatre', 'Trois']
		]);
		// Admins and a course without the order: nothing closed.
		expect(
			(await service.modulePage(database.db, readers, four!.slug, admin)).previous?.opensAfter
		).toBeNull();
		await service.updateCourseSettings(
			database.db,
			readers,
			{ title: 'Programme', sequential: false },
			admin
		);
		expect((await listed()).every(([, after]) => after === null)).toBe(true);
	});
});
