/**
 * Course modules (SEED.md parts 1.7, 2 "Module", 3, 4 "Admin modules"): admins write, order and publish them;
 * members read the published ones in order and mark them done. Who may read is the memberships domain's
 * `courseAccess`, the one access rule.
 */
import { renderMarkdown, slugify } from '$lib/markdown';
import type { ModuleCreate, ModuleUpdate } from '$lib/schemas/modules';
import type { Db, DbOrTx } from '../db';
import { changesOf, recordAudit, type Actor } from '../audit/service';
import { isUniqueViolation } from '../db/violations';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import * as queries from './queries';
import type { Module } from './queries';
import type { CatalogueModule, ReaderCache } from './reader-cache';
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
const AUDITED_FIELDS = ['title', 'slug', 'summary', 'published', 'position', 'durationMinutes'] as const;
const audited = (module: Module | null) => module && { ...module, contentLength: module.content.length };

function moduleChanges(before: Module | null, after: Module | null) {
	return changesOf(audited(before), audited(after), [...AUDITED_FIELDS, 'contentLength']);
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
	id: string,
	changes: ModuleUpdate,
	admin: Actor
): Promise<Module> {
	const updated = await guardSlug(() =>
		db.transaction(async (tx) => {
			const before = await getModule(tx, id);
			const updated = await queries.updateModule(tx, id, changes);
			if (!updated) throw new NotFoundError('Module introuvable.');
			await recordAudit(tx, admin, {
				kind: 'module.updated',
				subjectType: 'module',
				subjectId: id,
				changes: moduleChanges(before, updated)
			});
			return updated;
		})
	);
	await readers.catalogueChanged();
	return updated;
}

export async function deleteModule(db: Db, readers: ReaderCache, id: string, admin: Actor): Promise<void> {
	await db.transaction(async (tx) => {
		const before = await getModule(tx, id);
		// Progress rows go with it (ON DELETE CASCADE).
		if (!(await queries.deleteModule(tx, id))) throw new NotFoundError('Module introuvable.');
		await recordAudit(tx, admin, {
			kind: 'module.deleted',
			subjectType: 'module',
			subjectId: id,
			changes: moduleChanges(before, null)
		});
	});
	// Its progress rows went too; a reader's kept ids of it are harmless (only the catalogue's modules count).
	await readers.catalogueChanged();
}

export const listModules = (db: DbOrTx) => queries.allModules(db);
export const countModules = (db: DbOrTx) => queries.countModules(db);

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
	const [catalogue, completed] = await Promise.all([
		readers.catalogueOf(() => queries.catalogueModules(db)),
		readers.completedBy(userId, () => queries.completedModuleIds(db, userId))
	]);
	return { catalogue, completed, published: catalogue.filter((m) => m.published) };
}

/** A reader's progress over the published modules. */
export async function progressOf(db: DbOrTx, readers: ReaderCache, userId: string): Promise<Progress> {
	const { published, completed } = await readerView(db, readers, userId);
	const modules = published.map((m) => ({
		id: m.id,
		slug: m.slug,
		title: m.title,
		summary: m.summary,
		durationMinutes: m.durationMinutes,
		completed: completed.has(m.id)
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
	const { catalogue, published, completed } = await readerView(db, readers, reader.id);
	const module = catalogue.find((m) => m.slug === slug);
	if (!module || (!module.published && !reader.isAdmin)) throw new NotFoundError('Module introuvable.');
	const at = published.indexOf(module);
	const done = published.filter((m) => completed.has(m.id)).length;
	const unfinished = published.find((m) => !completed.has(m.id) && m.id !== module.id);
	return {
		module,
		html: await moduleHtml(db, module),
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

export async function completeModule(
	db: Db,
	readers: ReaderCache,
	userId: string,
	slug: string
): Promise<void> {
	await queries.markComplete(db, userId, (await publishedModule(db, slug)).id);
	await readers.progressChanged(userId);
}

export async function undoModule(db: Db, readers: ReaderCache, userId: string, slug: string): Promise<void> {
	await queries.markIncomplete(db, userId, (await publishedModule(db, slug)).id);
	await readers.progressChanged(userId);
}
