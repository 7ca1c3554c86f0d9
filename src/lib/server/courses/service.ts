/**
 * Course modules (SEED.md parts 1.7, 2 "Module", 3, 4 "Admin modules"): admins write, order and publish them;
 * members read the published ones in order and mark them done. Who may read is the memberships domain's
 * `courseAccess`, the one access rule.
 */
import { company } from '$lib/company';
import { MODULE_MEDIA_PREFIX, renderMarkdown, slugify } from '$lib/markdown';
import type { CourseFileView, ModuleCreate, ModuleUpdate } from '$lib/schemas/modules';
import type { Storage } from '../storage';
import { courseFilePathOf, type CourseFileKind } from './files';
import type { Db, DbOrTx } from '../db';
import { changesOf, recordAudit, type Actor } from '../audit';
import { isUniqueViolation } from '../db/violations';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { countRequest, type Limit } from '../abuse';
import type { QuizQuestionView, QuizResult } from '$lib/schemas/quiz';
import type { ModuleQuiz } from '../db/schema';
import * as queries from './queries';
import type { CourseFile, Module } from './queries';
import type { CatalogueModule, ReaderCache, ReaderSettings } from './reader-cache';
import { setBounded } from '../../bounded-map.js';

const SLUG_TAKEN = 'Cette adresse est déjà prise par un autre module.';

async function guardSlug<T>(task: () => Promise<T>): Promise<T> {
	try {
		return await task();
	} catch (error) {
		if (isUniqueViolation(error)) throw new ConflictError(SLUG_TAKEN);
		throw error;
	}
}

/** What the trail keeps of a module: its settings, and of its Markdown only how long it is. */
const AUDITED_FIELDS = [
	'title',
	'slug',
	'summary',
	'published',
	'position',
	'durationMinutes',
	'video',
	'captions',
	'poster',
	'attachments'
] as const;
const audited = (module: Module | null) =>
	module && {
		...module,
		contentLength: module.content.length,
		// Of the quiz, its size and threshold: the trail is read by every admin, the right answers stay in the module.
		quizQuestions: module.quiz?.questions.length ?? 0,
		quizPassPercent: module.quiz?.passPercent ?? null
	};

function moduleChanges(before: Module | null, after: Module | null) {
	return changesOf(audited(before), audited(after), [
		...AUDITED_FIELDS,
		'contentLength',
		'quizQuestions',
		'quizPassPercent'
	]);
}

export async function createModule(
	db: Db,
	readers: ReaderCache,
	input: ModuleCreate,
	admin: Actor
): Promise<Module> {
	const slug = input.slug || slugify(input.title);
	if (!slug) throw new ValidationError({ slug: ['Indiquez l’adresse du module (le titre n’en donne pas).'] });
	const created = await guardSlug(() =>
		db.transaction(async (tx) => {
			await checkCourseFiles(tx, input);
			const module = await queries.insertModule(tx, {
				...input,
				slug,
				position: input.position ?? (await queries.nextPosition(tx))
			});
			await recordAudit(tx, admin, {
				kind: 'module.created',
				subjectType: 'module',
				subjectId: module.id,
				changes: moduleChanges(null, module)
			});
			return module;
		})
	);
	await readers.catalogueChanged();
	return created;
}

export async function getModule(db: DbOrTx, id: string): Promise<Module> {
	const module = await queries.moduleById(db, id);
	if (!module) throw new NotFoundError('Module introuvable.');
	return module;
}

export async function updateModule(
	db: Db,
	readers: ReaderCache,
	storage: Storage,
	id: string,
	changes: ModuleUpdate,
	admin: Actor
): Promise<Module> {
	let released: string[] = [];
	const updated = await guardSlug(() =>
		db.transaction(async (tx) => {
			const before = await getModule(tx, id);
			await checkCourseFiles(tx, changes);
			const updated = await queries.updateModule(tx, id, changes);
			if (!updated) throw new NotFoundError('Module introuvable.');
			await recordAudit(tx, admin, {
				kind: 'module.updated',
				subjectType: 'module',
				subjectId: id,
				changes: moduleChanges(before, updated)
			});
			const kept = new Set(courseValuesOf(updated));
			released = courseValuesOf(before).filter((value) => !kept.has(value));
			return updated;
		})
	);
	await releaseCourseFiles(db, storage, released);
	await readers.catalogueChanged();
	return updated;
}

export async function deleteModule(
	db: Db,
	readers: ReaderCache,
	storage: Storage,
	id: string,
	admin: Actor
): Promise<void> {
	const before = await db.transaction(async (tx) => {
		const before = await getModule(tx, id);
		// Progress rows go with it (ON DELETE CASCADE).
		if (!(await queries.deleteModule(tx, id))) throw new NotFoundError('Module introuvable.');
		await recordAudit(tx, admin, {
			kind: 'module.deleted',
			subjectType: 'module',
			subjectId: id,
			changes: moduleChanges(before, null)
		});
		return before;
	});
	await releaseCourseFiles(db, storage, courseValuesOf(before));
	// Its progress rows went too; a reader's kept ids of it are harmless (only the catalogue's modules count).
	await readers.catalogueChanged();
}

// ——— The module's files ———

type FileFields = Partial<Pick<Module, 'video' | 'captions' | 'poster' | 'attachments'>>;

/** Every course file a module names. */
export const courseValuesOf = (module: FileFields): string[] =>
	[module.video, module.captions, module.poster, ...(module.attachments ?? []).map((a) => a.value)].filter(
		(value): value is string => !!value
	);

const KIND_NOUN: Record<CourseFileKind, string> = {
	video: 'une vidéo',
	captions: 'un fichier de sous-titres',
	poster: 'une affiche',
	attachment: 'une pièce jointe (PDF)'
};

/**
 * Each file a module is given must be one an upload stored (course_files), of the field's kind: a value typed by
 * hand, another module's poster given as a video, a site image or another bucket's object is refused, naming the
 * field.
 */
async function checkCourseFiles(db: DbOrTx, input: FileFields): Promise<void> {
	const wanted: { field: string; value: string; kind: CourseFileKind }[] = [];
	for (const kind of ['video', 'captions', 'poster'] as const) {
		const value = input[kind];
		if (value) wanted.push({ field: kind, value, kind });
	}
	input.attachments?.forEach(({ value }) => wanted.push({ field: 'attachments', value, kind: 'attachment' }));
	if (!wanted.length) return;
	const paths = wanted.map((w) => courseFilePathOf(w.value)).filter((p): p is string => !!p);
	const found = new Map((await queries.courseFilesByPath(db, paths)).map((file) => [file.path, file]));
	const errors: Record<string, string[]> = {};
	for (const { field, value, kind } of wanted) {
		const file = found.get(courseFilePathOf(value) ?? '');
		const problem = !file
			? `Fichier inconnu : envoyez-le depuis l’éditeur du module (${value.slice(0, 80)}).`
			: file.kind !== kind
				? `Ce fichier n’est pas ${KIND_NOUN[kind]} (${value.slice(0, 80)}).`
				: null;
		if (problem) (errors[field] ??= []).push(problem);
	}
	if (Object.keys(errors).length)
		throw new ValidationError(errors, 'Certains fichiers du module sont refusés.');
}

/** Files a module no longer names: deleted with their objects once no module names them. */
async function releaseCourseFiles(db: Db, storage: Storage, values: string[]): Promise<void> {
	for (const value of values) {
		const objectPath = courseFilePathOf(value);
		if (!objectPath || (await queries.isCourseValueUsed(db, value))) continue;
		await queries.deleteCourseFile(db, objectPath);
		await storage.delete(objectPath);
		forgetCourseFile(objectPath);
	}
}

/**
 * Files uploaded and never saved into a module (an editor closed before « Enregistrer »), a day on: deleted with
 * their objects. The daily maintenance runs it, with the abandoned uploads.
 */
export async function purgeUnusedCourseFiles(db: Db, storage: Storage, olderThanMs = 24 * 60 * 60 * 1000) {
	const unused = await queries.unusedCourseFiles(db, new Date(Date.now() - olderThanMs));
	for (const file of unused) {
		await queries.deleteCourseFile(db, file.path);
		await storage.delete(file.path);
		forgetCourseFile(file.path);
	}
	return unused.length;
}

/** A course file's row never changes once written: kept per instance, read once (bounded). */
const knownFiles = new Map<string, CourseFile>();
const KNOWN_FILES_MAX = 2_000;
const forgetCourseFile = (objectPath: string) => knownFiles.delete(objectPath);

async function courseFilesOf(db: DbOrTx, values: string[]): Promise<Map<string, CourseFile>> {
	const paths = values.map(courseFilePathOf).filter((p): p is string => !!p);
	const missing = paths.filter((p) => !knownFiles.has(p));
	for (const file of await queries.courseFilesByPath(db, missing))
		setBounded(knownFiles, file.path, file, KNOWN_FILES_MAX);
	return new Map(paths.flatMap((p) => (knownFiles.has(p) ? [[p, knownFiles.get(p)!] as const] : [])));
}

export const courseFilesTotal = (db: DbOrTx) => queries.courseFilesTotal(db);

/** The members' URL of a course file. */
const mediaUrl = (value: string) => `${MODULE_MEDIA_PREFIX}${courseFilePathOf(value)}`;

export const listModules = (db: DbOrTx) => queries.allModules(db);

/** Up or down one place, from the keyboard or without JavaScript. */
export async function moveModule(
	db: Db,
	readers: ReaderCache,
	id: string,
	direction: 'up' | 'down',
	admin: Actor
): Promise<void> {
	await db.transaction(async (tx) => {
		const before = (await queries.allModules(tx)).map((m) => m.id);
		const ordered = [...before];
		const from = ordered.indexOf(id);
		if (from === -1) throw new NotFoundError('Module introuvable.');
		const to = direction === 'up' ? from - 1 : from + 1;
		if (to < 0 || to >= ordered.length) return;
		[ordered[from], ordered[to]] = [ordered[to]!, ordered[from]!];
		await queries.setPositions(tx, ordered);
		await recordAudit(tx, admin, {
			kind: 'modules.reordered',
			subjectType: 'module',
			subjectId: id,
			changes: { order: { before, after: ordered } }
		});
	});
	await readers.catalogueChanged();
}

/** Drag and drop: the whole new order, which must name every module once. */
export async function reorderModules(
	db: Db,
	readers: ReaderCache,
	orderedIds: string[],
	admin: Actor
): Promise<void> {
	await db.transaction(async (tx) => {
		const current = (await queries.allModules(tx)).map((m) => m.id);
		const same = current.length === orderedIds.length && new Set(orderedIds).size === current.length;
		if (!same || !orderedIds.every((id) => current.includes(id)))
			throw new ConflictError('La liste des modules a changé entre-temps : rechargez la page.');
		await queries.setPositions(tx, orderedIds);
		await recordAudit(tx, admin, {
			kind: 'modules.reordered',
			subjectType: 'modules',
			changes: { order: { before: current, after: orderedIds } }
		});
	});
	await readers.catalogueChanged();
}

// ——— Members ———

export interface ModuleState {
	id: string;
	slug: string;
	title: string;
	summary: string;
	durationMinutes: number;
	completed: boolean;
	/** Where the reader stopped in its video, in seconds (the dashboard's « reprendre à … »); null if not started. */
	resumeAt: number | null;
}

export interface Progress {
	modules: ModuleState[];
	completed: number;
	total: number;
	/** 0–100, over published modules only. */
	percent: number;
	/** The first published module not completed yet; null when all are done (or there are none). */
	next: ModuleState | null;
}

/**
 * What a reader's pages are made of: every module, and the ids of those `userId` completed. Both come from the reader
 * cache (reader-cache.ts), which reads the database only when it does not hold them.
 */
async function readerView(db: DbOrTx, readers: ReaderCache, userId: string) {
	const [catalogue, completed, settings] = await Promise.all([
		readers.catalogueOf(() => queries.catalogueModules(db)),
		readers.completedBy(userId, () => queries.completedModuleIds(db, userId)),
		courseSettingsOf(db, readers)
	]);
	return { catalogue, completed, settings, published: catalogue.filter((m) => m.published) };
}

type ReaderView = Awaited<ReturnType<typeof readerView>>;

/**
 * With « Ordre imposé », a module opens once the one before it is completed: the module to finish first, or null
 * when this one is open (the order is off, it is the first, it or the one before is done; admins read everything).
 * A module completed before the order was imposed, or before a module was inserted ahead of it, stays open.
 */
function blockerOf(
	view: ReaderView,
	module: CatalogueModule,
	reader: { isAdmin: boolean }
): Neighbour | null {
	if (!view.settings.sequential || reader.isAdmin || view.completed.has(module.id)) return null;
	const before = view.published[view.published.indexOf(module) - 1];
	return before && !view.completed.has(before.id) ? neighbour(before) : null;
}

/** A module closed by the chosen order (403): the page says which one to finish first. */
export class ModuleLockedError extends ForbiddenError {
	constructor(readonly first: Neighbour) {
		super(`Terminez d’abord le module « ${first.title} » : les modules s’ouvrent dans l’ordre.`);
	}
}

function assertOpen(view: ReaderView, module: CatalogueModule, reader: { isAdmin: boolean }): void {
	const first = blockerOf(view, module, reader);
	if (first) throw new ModuleLockedError(first);
}

/** A module as a reader may act on it (complete, answer its quiz, keep their place): published and open. */
async function moduleToActOn(
	db: DbOrTx,
	readers: ReaderCache,
	reader: { id: string; isAdmin: boolean },
	slug: string
) {
	const view = await readerView(db, readers, reader.id);
	const module = view.catalogue.find((m) => m.slug === slug);
	if (!module || (!module.published && !reader.isAdmin)) throw new NotFoundError('Module introuvable.');
	assertOpen(view, module, reader);
	return { view, module };
}

/** A reader's progress over the published modules. */
export async function progressOf(db: DbOrTx, readers: ReaderCache, userId: string): Promise<Progress> {
	const { published, completed } = await readerView(db, readers, userId);
	// Positions are read only when a video's module is left to do (the dashboard shows the next one's).
	const positions = published.some((m) => m.video && !completed.has(m.id))
		? new Map((await queries.videoPositionsOf(db, userId)).map((p) => [p.moduleId, p.seconds]))
		: new Map<string, number>();
	const modules = published.map((m) => ({
		id: m.id,
		slug: m.slug,
		title: m.title,
		summary: m.summary,
		durationMinutes: m.durationMinutes,
		completed: completed.has(m.id),
		resumeAt: m.video ? (positions.get(m.id) ?? null) : null
	}));
	const done = modules.filter((m) => m.completed).length;
	return {
		modules,
		completed: done,
		total: modules.length,
		percent: percentOf(done, modules.length),
		next: modules.find((m) => !m.completed) ?? null
	};
}

const percentOf = (completed: number, total: number) => (total ? Math.round((completed / total) * 100) : 0);

/**
 * A module's HTML, rendered once per version: a 3 000-word module takes milliseconds to render, and every member
 * reads the same bytes. Keyed by id and last update, as the catalogue gives them: each instance renders a new
 * version once, as soon as its catalogue has it (the edit's NOTIFY drops the old one); the Markdown is read from the
 * database only on a miss. The oldest entries go first past a few hundred.
 */
const rendered = new Map<string, string>();
const RENDERED_MAX = 200;
const renderedKey = (id: string, updatedAt: Date) => `${id}:${updatedAt.getTime()}`;

async function moduleHtml(db: DbOrTx, module: { id: string; updatedAt: Date }): Promise<string> {
	const cached = rendered.get(renderedKey(module.id, module.updatedAt));
	if (cached !== undefined) return cached;
	const source = await queries.moduleContent(db, module.id);
	if (!source) throw new NotFoundError('Module introuvable.');
	// Keyed by the version read, which is the newer one if the module changed in between.
	const html = renderMarkdown(source.content);
	setBounded(rendered, renderedKey(module.id, source.updatedAt), html, RENDERED_MAX);
	return html;
}

/** A neighbour of a module on its page: where the link goes, and what it says. */
export interface Neighbour {
	slug: string;
	title: string;
}

/**
 * A module page: the module, whether the reader completed it, its neighbours among the published modules, and the
 * reader's progress figures with the first other module left to do. An unpublished module is not found, except for admins, who see a preview without
 * neighbours. No query when the reader cache holds the reader's view and the module's HTML is rendered.
 */
export async function modulePage(
	db: DbOrTx,
	readers: ReaderCache,
	slug: string,
	reader: { id: string; isAdmin: boolean }
) {
	const view = await readerView(db, readers, reader.id);
	const { catalogue, published, completed } = view;
	const module = catalogue.find((m) => m.slug === slug);
	if (!module || (!module.published && !reader.isAdmin)) throw new NotFoundError('Module introuvable.');
	const at = published.indexOf(module);
	const done = published.filter((m) => completed.has(m.id)).length;
	const unfinished = published.find((m) => !completed.has(m.id) && m.id !== module.id);
	// Closed by the chosen order: its title and where to go, nothing of its lesson.
	const blockedBy = blockerOf(view, module, reader);
	return {
		module,
		blockedBy,
		media: blockedBy ? null : await mediaOf(db, module, reader.id),
		html: blockedBy ? null : await moduleHtml(db, module),
		quiz: blockedBy || !module.quiz ? null : await quizPageOf(db, module.id, module.quiz, reader.id),
		completed: completed.has(module.id),
		previous: at > 0 ? neighbour(published[at - 1]!) : null,
		next: at >= 0 && at < published.length - 1 ? neighbour(published[at + 1]!) : null,
		progress: {
			completed: done,
			total: published.length,
			percent: percentOf(done, published.length),
			/** The first other module not done yet: where to go once this one is; null when none is left. */
			unfinished: unfinished ? neighbour(unfinished) : null
		}
	};
}

const neighbour = ({ slug, title }: CatalogueModule): Neighbour => ({ slug, title });

async function publishedModule(db: DbOrTx, slug: string): Promise<Module> {
	const module = await queries.moduleBySlug(db, slug);
	if (!module || !module.published) throw new NotFoundError('Module introuvable.');
	return module;
}

const QUIZ_COMPLETES = 'Ce module se termine en réussissant son quiz.';

/** « Marquer comme terminé »: a published module, open to the reader, without a quiz (passing it completes it). */
export async function completeModule(
	db: Db,
	readers: ReaderCache,
	reader: { id: string; isAdmin: boolean },
	slug: string
): Promise<void> {
	await moduleToActOn(db, readers, reader, slug);
	const module = await publishedModule(db, slug);
	if (module.quiz) throw new ConflictError(QUIZ_COMPLETES);
	await queries.markComplete(db, reader.id, module.id);
	await readers.progressChanged(reader.id);
}

/** « Pas encore terminé »: a module completed by passing its quiz stays completed. */
export async function undoModule(db: Db, readers: ReaderCache, userId: string, slug: string): Promise<void> {
	const module = await publishedModule(db, slug);
	if (module.quiz) throw new ConflictError('Un module terminé par son quiz le reste.');
	await queries.markIncomplete(db, userId, module.id);
	await readers.progressChanged(userId);
}

// ——— Quizzes ———

/** One attempt per 30 seconds per member and module, spent before the answers are graded. */
export const QUIZ_ATTEMPT_LIMIT: Limit = { name: 'quiz-attempt', max: 1, windowSeconds: 30 };

/** What the module page shows of its quiz: the questions without their answers, and the last attempt's outcome. */
export interface QuizPage {
	passPercent: number;
	questions: QuizQuestionView[];
	last: { score: number; passed: boolean; at: Date } | null;
	passed: boolean;
}

const questionViews = (quiz: ModuleQuiz): QuizQuestionView[] =>
	quiz.questions.map((q) => ({
		prompt: q.prompt,
		choices: q.choices.map((c) => c.text),
		multiple: q.choices.filter((c) => c.correct).length > 1
	}));

async function quizPageOf(db: DbOrTx, moduleId: string, quiz: ModuleQuiz, userId: string): Promise<QuizPage> {
	const attempts = await queries.quizAttemptsOf(db, userId, moduleId);
	const last = attempts[0];
	return {
		passPercent: quiz.passPercent,
		questions: questionViews(quiz),
		last: last ? { score: last.score, passed: last.passed, at: last.createdAt } : null,
		passed: attempts.some((a) => a.passed)
	};
}

/**
 * The choices sent for each question (form fields `q0`, `q1`…: one value for a single answer, several for boxes),
 * as indexes into its choices; a question left blank is answered by nothing (and wrong). A value that names no
 * choice of its question, a field of no question, or too many values are the client's mistake: 400, before
 * anything is spent.
 */
export function quizAnswersOf(form: FormData, quiz: ModuleQuiz): number[][] {
	const known = new Set(quiz.questions.map((_, index) => `q${index}`));
	const stray = [...form.keys()].find((key) => /^q\d/.test(key) && !known.has(key));
	if (stray) throw new ValidationError({ [stray]: ['Cette question n’est pas dans le quiz.'] });
	return quiz.questions.map((question, index) => {
		const values = form.getAll(`q${index}`);
		const chosen = values.map((value) =>
			typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : -1
		);
		if (chosen.some((c) => c < 0 || c >= question.choices.length) || new Set(chosen).size !== chosen.length)
			throw new ValidationError({ [`q${index}`]: ['Réponse inconnue : rechargez la page.'] });
		return chosen.sort((a, b) => a - b);
	});
}

/**
 * Grades an attempt at a module's quiz: the member's place in the limit is taken first (a burst of attempts grades
 * one), then the answers are graded against the module as saved now; each question is right when exactly its
 * right choices are chosen. The attempt is kept; passing completes the module.
 */
export async function answerQuiz(
	db: Db,
	readers: ReaderCache,
	reader: { id: string; isAdmin: boolean },
	slug: string,
	form: FormData
): Promise<QuizResult> {
	await moduleToActOn(db, readers, reader, slug);
	const module = reader.isAdmin ? await queries.moduleBySlug(db, slug) : await publishedModule(db, slug);
	if (!module?.quiz) throw new NotFoundError('Ce module n’a pas de quiz.');
	const quiz = module.quiz;
	const answers = quizAnswersOf(form, quiz);
	await countRequest(db, QUIZ_ATTEMPT_LIMIT, `${reader.id}:${module.id}`);
	const questions = quiz.questions.map((question, index) => {
		const right = question.choices.flatMap((choice, at) => (choice.correct ? [at] : []));
		const chosen = answers[index]!;
		return {
			right: chosen.length === right.length && chosen.every((c, at) => c === right[at]),
			explanation: question.explanation ?? null,
			chosen
		};
	});
	const correct = questions.filter((q) => q.right).length;
	const score = Math.floor((correct / questions.length) * 100);
	const passed = score >= quiz.passPercent;
	await db.transaction(async (tx) => {
		await queries.insertQuizAttempt(tx, {
			userId: reader.id,
			moduleId: module.id,
			score,
			correct,
			total: questions.length,
			passed,
			answers
		});
		if (passed && module.published) await queries.markComplete(tx, reader.id, module.id);
	});
	if (passed) await readers.progressChanged(reader.id);
	return { score, passed, passPercent: quiz.passPercent, correct, total: questions.length, questions };
}

// ——— The course's settings ———

/** Until an admin names it, the programme is the one the company file sells. */
const defaultSettings = (): ReaderSettings => ({ title: company.training.name, sequential: false });

export const courseSettingsOf = (db: DbOrTx, readers: ReaderCache): Promise<ReaderSettings> =>
	readers.settingsOf(async () => (await queries.courseSettingsRow(db)) ?? defaultSettings());

export async function updateCourseSettings(
	db: Db,
	readers: ReaderCache,
	settings: ReaderSettings,
	admin: Actor
): Promise<ReaderSettings> {
	await db.transaction(async (tx) => {
		const before = (await queries.courseSettingsRow(tx)) ?? defaultSettings();
		await queries.saveCourseSettings(tx, settings);
		const changes = changesOf(before, settings, ['title', 'sequential']);
		if (Object.keys(changes).length)
			await recordAudit(tx, admin, { kind: 'course.updated', subjectType: 'course', changes });
	});
	await readers.catalogueChanged();
	return { title: settings.title, sequential: settings.sequential };
}

// ——— A lesson's media, for members ———

export interface ModuleMedia {
	video: { url: string; contentType: string; durationSeconds: number | null } | null;
	captionsUrl: string | null;
	posterUrl: string | null;
	attachments: { title: string; url: string; size: number; contentType: string }[];
	/** Where the reader stopped in the video, in seconds; null when they have not started it. */
	resumeAt: number | null;
}

async function mediaOf(db: DbOrTx, module: CatalogueModule, readerId: string): Promise<ModuleMedia> {
	const files = await courseFilesOf(db, courseValuesOf(module));
	const file = (value: string | null) => (value ? files.get(courseFilePathOf(value) ?? '') : undefined);
	const video = file(module.video);
	const positions = video ? await queries.videoPositionsOf(db, readerId) : [];
	return {
		video: video
			? {
					url: mediaUrl(module.video!),
					contentType: video.contentType,
					durationSeconds: video.durationSeconds
				}
			: null,
		captionsUrl: video && file(module.captions) ? mediaUrl(module.captions!) : null,
		posterUrl: file(module.poster) ? mediaUrl(module.poster!) : null,
		attachments: module.attachments.flatMap((a) => {
			const stored = file(a.value);
			return stored
				? [{ title: a.title, url: mediaUrl(a.value), size: stored.size, contentType: stored.contentType }]
				: [];
		}),
		resumeAt: positions.find((p) => p.moduleId === module.id)?.seconds ?? null
	};
}

/**
 * Who may fetch a course file is who may read its module: a published module (the route has checked the member's
 * access), or any module for an admin — and an admin, a file just uploaded (the editor's preview). An attachment
 * downloads under its title. Not found otherwise — a file no module names, a deleted module's, an unpublished
 * one's — so nothing tells a file exists.
 */
export async function courseMedia(
	db: DbOrTx,
	readers: ReaderCache,
	objectPath: string,
	reader: { id: string; isAdmin: boolean }
): Promise<{ objectPath: string; downloadName?: string }> {
	const value = `storage:${objectPath}`;
	if (!courseFilePathOf(value)) throw new NotFoundError('Fichier introuvable.');
	const module = await queries.moduleOfCourseValue(db, value);
	if (!module) {
		// Just uploaded, not saved into a module yet: the admin previews it in the editor.
		if (reader.isAdmin && (await queries.courseFilesByPath(db, [objectPath])).length) return { objectPath };
		throw new NotFoundError('Fichier introuvable.');
	}
	if (!module.published && !reader.isAdmin) throw new NotFoundError('Fichier introuvable.');
	// A module the chosen order keeps closed keeps its files closed too (403, saying which module comes first).
	const view = await readerView(db, readers, reader.id);
	const listed = view.catalogue.find((m) => m.id === module.id);
	if (listed) assertOpen(view, listed, reader);
	const attachment = module.attachments.find((a) => a.value === value);
	if (!attachment) return { objectPath };
	const extension = objectPath.slice(objectPath.lastIndexOf('.'));
	const title = attachment.title.toLowerCase().endsWith(extension)
		? attachment.title
		: `${attachment.title}${extension}`;
	return { objectPath, downloadName: title };
}

/** Where a reader is in a module's video: kept to resume there. Seconds past the video's end are its end. */
export async function saveVideoPosition(
	db: DbOrTx,
	readers: ReaderCache,
	reader: { id: string; isAdmin: boolean },
	slug: string,
	seconds: number
): Promise<void> {
	const { module } = await moduleToActOn(db, readers, reader, slug);
	if (!module.video) throw new NotFoundError('Module introuvable.');
	const video = (await courseFilesOf(db, [module.video])).get(courseFilePathOf(module.video) ?? '');
	const end = video?.durationSeconds ?? Number.MAX_SAFE_INTEGER;
	await queries.saveVideoPosition(db, reader.id, module.id, Math.max(0, Math.min(Math.floor(seconds), end)));
}

/** Every video position of a reader (their data file, the dashboard's « reprendre à … »). */
export const videoPositionsOf = (db: DbOrTx, userId: string) => queries.videoPositionsOf(db, userId);

// ——— The editor's view of a module's files ———

/** What the editor shows of a file (client-safe: the schema module's). */
export type EditorFile = CourseFileView;

export interface EditorFiles {
	video: EditorFile | null;
	captions: EditorFile | null;
	poster: EditorFile | null;
	attachments: (EditorFile & { title: string })[];
}

/** What the module editor shows of each file: its name, size, duration, and the MP4 index warning. */
export async function editorFilesOf(db: DbOrTx, module: Module): Promise<EditorFiles> {
	const files = await courseFilesOf(db, courseValuesOf(module));
	const describe = (value: string | null): EditorFile | null => {
		const file = value ? files.get(courseFilePathOf(value) ?? '') : undefined;
		if (!value || !file) return null;
		return {
			value,
			name: file.originalName,
			contentType: file.contentType,
			size: file.size,
			durationSeconds: file.durationSeconds,
			indexAtEnd: file.indexAtEnd,
			url: mediaUrl(value)
		};
	};
	return {
		video: describe(module.video),
		captions: describe(module.captions),
		poster: describe(module.poster),
		attachments: module.attachments.flatMap((a) => {
			const file = describe(a.value);
			return file ? [{ ...file, title: a.title }] : [];
		})
	};
}
