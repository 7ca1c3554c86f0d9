/**
 * A member's way through the course: the published modules in order, which are done, which are locked while
 * « Ordre imposé » holds (a module opens once the one before it is done), and the figures of the dashboard. Who may
 * read at all is the memberships domain's `courseAccess`, the one access rule.
 */
import type { Db, DbOrTx } from '../db';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import * as queries from './queries';
import type { Module } from './queries';
import type { CatalogueModule, ReaderCache } from './reader-cache';
import { courseSettingsOf } from './settings';

export interface ModuleState {
	id: string;
	slug: string;
	title: string;
	summary: string;
	durationMinutes: number;
	completed: boolean;
	/** Where the reader stopped in its video, in seconds (the dashboard's « reprendre à … »); null if not started. */
	resumeAt: number | null;
	/** Closed by « Ordre imposé »: the title of the module it opens after; null when it is open. */
	opensAfter: string | null;
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
export async function readerView(db: DbOrTx, readers: ReaderCache, userId: string) {
	const [catalogue, completed, settings] = await Promise.all([
		readers.catalogueOf(() => queries.catalogueModules(db)),
		readers.completedBy(userId, () => queries.completedModuleIds(db, userId)),
		courseSettingsOf(db, readers)
	]);
	// Read only while the course asks a positioning, and kept with the reader's progress.
	const positioned =
		!settings.positioning ||
		(await readers.positionedBy(userId, () => queries.hasAnsweredPositioning(db, userId)));
	return { catalogue, completed, settings, positioned, published: catalogue.filter((m) => m.published) };
}

/**
 * The positioning at entry comes first (issue « Formation, part 1 », point 3): while the course asks one and the
 * member has not answered it, no module opens — its page leads to `/cours/positionnement`, and completion, quizzes,
 * positions and media answer 403. Admins read everything.
 */
export class PositioningRequiredError extends ForbiddenError {
	constructor() {
		super('Répondez d’abord au questionnaire de positionnement : le premier module s’ouvre ensuite.');
	}
}

export function assertPositioned(view: { positioned: boolean }, reader: { isAdmin: boolean }): void {
	if (!view.positioned && !reader.isAdmin) throw new PositioningRequiredError();
}

type ReaderView = Awaited<ReturnType<typeof readerView>>;

/**
 * With « Ordre imposé », a module opens once the one before it is completed: the module to finish first, or null
 * when this one is open (the order is off, it is the first, it or the one before is done; admins read everything).
 * A module completed before the order was imposed, or before a module was inserted ahead of it, stays open.
 */
export function blockerOf(
	view: ReaderView,
	module: CatalogueModule,
	reader: { isAdmin: boolean }
): Neighbour | null {
	if (!view.settings.sequential || reader.isAdmin || view.completed.has(module.id)) return null;
	const before = view.published[view.published.indexOf(module) - 1];
	return before && !view.completed.has(before.id) ? neighbour(before) : null;
}

/** A module closed by the chosen order (403): which one it opens after, and where to go on (`first`). */
export class ModuleLockedError extends ForbiddenError {
	constructor(
		readonly after: Neighbour,
		readonly first: Neighbour
	) {
		super(
			`Ce module s’ouvre après «\u202f${after.title}\u202f» : les modules s’ouvrent dans l’ordre. Reprenez à «\u202f${first.title}\u202f».`
		);
	}
}

export function assertOpen(view: ReaderView, module: CatalogueModule, reader: { isAdmin: boolean }): void {
	assertPositioned(view, reader);
	const after = blockerOf(view, module, reader);
	if (after) throw new ModuleLockedError(after, firstUnfinished(view) ?? after);
}

/** A module as a reader may act on it (complete, answer its quiz, keep their place): published and open. */
export async function moduleToActOn(
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

/** A reader's progress over the published modules (as a member sees them: an admin's own progress is a member's). */
export async function progressOf(db: DbOrTx, readers: ReaderCache, userId: string): Promise<Progress> {
	const view = await readerView(db, readers, userId);
	const { published, completed } = view;
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
		resumeAt: m.video ? (positions.get(m.id) ?? null) : null,
		opensAfter: blockerOf(view, m, { isAdmin: false })?.title ?? null
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

export const percentOf = (completed: number, total: number) =>
	total ? Math.round((completed / total) * 100) : 0;

/** A neighbour of a module on its page: where the link goes, and what it says. */
export interface Neighbour {
	slug: string;
	title: string;
}
export const neighbour = ({ slug, title }: CatalogueModule): Neighbour => ({ slug, title });

/**
 * The first published module the reader has not completed: with « Ordre imposé » it is always open (every module
 * before it is done), so it is where a closed module sends them — never to another closed one. Null when all are done.
 */
export function firstUnfinished(view: ReaderView): Neighbour | null {
	const first = view.published.find((m) => !view.completed.has(m.id));
	return first ? neighbour(first) : null;
}

export async function publishedModule(db: DbOrTx, slug: string): Promise<Module> {
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

/** Every video position of a reader (their data file, the dashboard's « reprendre à … »). */
export const videoPositionsOf = (db: DbOrTx, userId: string) => queries.videoPositionsOf(db, userId);
