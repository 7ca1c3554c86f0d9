/** The courses domain's SQL, and nothing else: each function takes the database or a transaction. */
import { and, asc, count, eq, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { builtOnce } from '../db/built-once';
import { moduleProgress, modules, type Module } from '../db/schema';

export type { Module };
export type NewModule = typeof modules.$inferInsert;

export const allModules = (db: DbOrTx): Promise<Module[]> =>
	db.select().from(modules).orderBy(asc(modules.position), asc(modules.createdAt));

/**
 * What a reader's page needs, in one query: the published modules in order, each with whether `userId` completed
 * it, plus the module `alsoSlug` even unpublished (an admin's preview). No content: a module's HTML is rendered
 * once per version (service.moduleHtml), so its Markdown is read only when that version is not rendered yet.
 */
export const readerModules = (db: DbOrTx, userId: string, alsoSlug: string | null = null) =>
	alsoSlug === null
		? publishedForReader(db).execute({ userId })
		: publishedAndOneForReader(db).execute({ userId, alsoSlug });

// Every course page and dashboard runs one of the two: built once (db/built-once.ts), not at each request.
const readerModulesQuery = (db: DbOrTx, which: SQL | undefined, name: string) =>
	db
		.select({
			id: modules.id,
			slug: modules.slug,
			title: modules.title,
			summary: modules.summary,
			durationMinutes: modules.durationMinutes,
			published: modules.published,
			updatedAt: modules.updatedAt,
			completed: sql<boolean>`${moduleProgress.userId} is not null`.mapWith(Boolean)
		})
		.from(modules)
		.leftJoin(
			moduleProgress,
			and(eq(moduleProgress.moduleId, modules.id), eq(moduleProgress.userId, sql.placeholder('userId')))
		)
		.where(which)
		.orderBy(asc(modules.position), asc(modules.createdAt))
		.prepare(name);
const publishedForReader = builtOnce((db) =>
	readerModulesQuery(db, eq(modules.published, true), 'reader_modules')
);
const publishedAndOneForReader = builtOnce((db) =>
	readerModulesQuery(
		db,
		or(eq(modules.published, true), eq(modules.slug, sql.placeholder('alsoSlug'))),
		'reader_modules_and_one'
	)
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
