/** The courses domain's SQL, and nothing else: each function takes the database or a transaction. */
import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { builtOnce } from '../db/built-once';
import { moduleProgress, modules, type Module } from '../db/schema';

export type { Module };
export type NewModule = typeof modules.$inferInsert;

export const allModules = (db: DbOrTx): Promise<Module[]> =>
	db.select().from(modules).orderBy(asc(modules.position), asc(modules.createdAt));

/** What a reader sees of a module, and the reader's completion of it (the `userId` placeholder) to join. */
const READER_COLUMNS = {
	id: modules.id,
	slug: modules.slug,
	title: modules.title,
	summary: modules.summary,
	durationMinutes: modules.durationMinutes,
	published: modules.published,
	updatedAt: modules.updatedAt
};
const READERS_PROGRESS = and(
	eq(moduleProgress.moduleId, modules.id),
	eq(moduleProgress.userId, sql.placeholder('userId'))
);

/**
 * The reader's modules, in one query: the published modules in order, each with whether `userId` completed it.
 * No content: a module's HTML is rendered once per version (service.moduleHtml), so its Markdown is read only when
 * that version is not rendered yet.
 */
export const readerModules = (db: DbOrTx, userId: string) => readerModulesQuery(db).execute({ userId });

// Every dashboard runs it: built once (db/built-once.ts), not at each request.
const readerModulesQuery = builtOnce((db) =>
	db
		.select({
			...READER_COLUMNS,
			completed: sql<boolean>`${moduleProgress.userId} is not null`.mapWith(Boolean)
		})
		.from(modules)
		.leftJoin(moduleProgress, READERS_PROGRESS)
		.where(eq(modules.published, true))
		.orderBy(asc(modules.position), asc(modules.createdAt))
		.prepare('reader_modules')
);

/**
 * What a module's page needs, in one row: the module (published, or the admin's preview of an unpublished one),
 * whether `userId` completed it, its neighbours among the published modules, and the reader's counts over them.
 * The database does the counting and the neighbours (window functions over the same rows readerModules reads),
 * so one row comes back instead of one a module: on the embedded database, decoding those rows was most of a
 * course page's extra cost over a light page. An unpublished module has no neighbours (it is alone in its
 * partition), as before. Nothing when no module has that slug.
 */
export const moduleForReader = async (db: DbOrTx, userId: string, slug: string) =>
	(await moduleForReaderQuery(db).execute({ userId, slug }))[0];

// Every course page runs it: built once (db/built-once.ts).
const moduleForReaderQuery = builtOnce((db) => {
	const inOrder = sql`over (partition by ${modules.published} order by ${modules.position}, ${modules.createdAt})`;
	const publishedOnly = sql`filter (where ${modules.published}) over ()`;
	const reader = db
		.select({
			...READER_COLUMNS,
			completed: sql<boolean>`${moduleProgress.userId} is not null`.as('completed'),
			publishedCount: sql<number>`(count(*) ${publishedOnly})::int`.as('published_count'),
			completedCount: sql<number>`(count(${moduleProgress.userId}) ${publishedOnly})::int`.as(
				'completed_count'
			),
			previousSlug: sql<string | null>`lag(${modules.slug}) ${inOrder}`.as('previous_slug'),
			previousTitle: sql<string | null>`lag(${modules.title}) ${inOrder}`.as('previous_title'),
			nextSlug: sql<string | null>`lead(${modules.slug}) ${inOrder}`.as('next_slug'),
			nextTitle: sql<string | null>`lead(${modules.title}) ${inOrder}`.as('next_title')
		})
		.from(modules)
		.leftJoin(moduleProgress, READERS_PROGRESS)
		.where(or(eq(modules.published, true), eq(modules.slug, sql.placeholder('slug'))))
		.as('reader');
	return db
		.select()
		.from(reader)
		.where(eq(reader.slug, sql.placeholder('slug')))
		.prepare('module_for_reader');
});

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
