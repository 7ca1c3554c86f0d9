/** The courses domain's SQL, and nothing else: each function takes the database or a transaction. */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { builtOnce } from '../db/built-once';
import { moduleProgress, modules, type Module } from '../db/schema';
import type { CatalogueModule } from './reader-cache';

export type { Module };
export type NewModule = typeof modules.$inferInsert;

export const allModules = (db: DbOrTx): Promise<Module[]> =>
	db.select().from(modules).orderBy(asc(modules.position), asc(modules.createdAt));

/**
 * What a reader sees of every module, published or not, in the admin's order: the catalogue a reader cache keeps
 * (reader-cache.ts). No content: a module's HTML is rendered once per version (service.moduleHtml), so its Markdown is
 * read only when that version is not rendered yet.
 */
export const catalogueModules = (db: DbOrTx): Promise<CatalogueModule[]> =>
	db
		.select({
			id: modules.id,
			slug: modules.slug,
			title: modules.title,
			summary: modules.summary,
			durationMinutes: modules.durationMinutes,
			published: modules.published,
			updatedAt: modules.updatedAt
		})
		.from(modules)
		.orderBy(asc(modules.position), asc(modules.createdAt));

/** The ids of the modules a reader completed. */
export const completedModuleIds = async (db: DbOrTx, userId: string): Promise<string[]> =>
	(await completedModuleIdsQuery(db).execute({ userId })).map((row) => row.moduleId);

// Read at a reader's first page, then again after each change of their progress: built once (db/built-once.ts).
const completedModuleIdsQuery = builtOnce((db) =>
	db
		.select({ moduleId: moduleProgress.moduleId })
		.from(moduleProgress)
		.where(eq(moduleProgress.userId, sql.placeholder('userId')))
		.prepare('completed_module_ids')
);

/** A module's Markdown, with the version it is (updatedAt), or nothing when the module is gone. */
export const moduleContent = async (db: DbOrTx, id: string) =>
	(
		await db
			.select({ content: modules.content, updatedAt: modules.updatedAt })
			.from(modules)
			.where(eq(modules.id, id))
	)[0];

export const moduleById = async (db: DbOrTx, id: string) =>
	(await db.select().from(modules).where(eq(modules.id, id)))[0];

export const moduleBySlug = async (db: DbOrTx, slug: string) =>
	(await db.select().from(modules).where(eq(modules.slug, slug)))[0];

export async function nextPosition(db: DbOrTx): Promise<number> {
	const [row] = await db.select({ max: sql<number | null>`max(${modules.position})` }).from(modules);
	return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
}

/** Throws PostgreSQL's unique violation (23505) on a taken slug. */
export async function insertModule(db: DbOrTx, values: NewModule): Promise<Module> {
	const [row] = await db.insert(modules).values(values).returning();
	return row!;
}

export async function updateModule(db: DbOrTx, id: string, changes: Partial<NewModule>) {
	const [row] = await db
		.update(modules)
		.set({ ...changes, updatedAt: new Date() })
		.where(eq(modules.id, id))
		.returning();
	return row;
}

export async function deleteModule(db: DbOrTx, id: string): Promise<boolean> {
	const deleted = await db.delete(modules).where(eq(modules.id, id)).returning({ id: modules.id });
	return deleted.length === 1;
}

/** Rewrites every position from an ordered list of ids (0, 1, 2…). */
export async function setPositions(db: DbOrTx, orderedIds: string[]): Promise<void> {
	for (const [position, id] of orderedIds.entries())
		await db.update(modules).set({ position }).where(eq(modules.id, id));
}

/** One row per (user, module): a second completion, simultaneous or not, changes nothing. */
export async function markComplete(db: DbOrTx, userId: string, moduleId: string): Promise<void> {
	await db.insert(moduleProgress).values({ userId, moduleId }).onConflictDoNothing();
}

export async function markIncomplete(db: DbOrTx, userId: string, moduleId: string): Promise<void> {
	await db
		.delete(moduleProgress)
		.where(and(eq(moduleProgress.userId, userId), eq(moduleProgress.moduleId, moduleId)));
}

export async function countModules(db: DbOrTx): Promise<{ all: number; published: number }> {
	const [row] = await db
		.select({ all: count(), published: sql<number>`count(*) filter (where ${modules.published})` })
		.from(modules);
	return { all: row?.all ?? 0, published: Number(row?.published ?? 0) };
}
