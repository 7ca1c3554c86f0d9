/** The content entries' SQL (issue « Content, part 1 »), and nothing else: each function takes the database or a transaction. */
import { and, desc, eq, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { contentEntries, contentRedirects, contentRevisions, users } from '../db/schema';

export type EntryRow = typeof contentEntries.$inferSelect;

/** An entry joined with the revision visitors read. */
const liveRevision = and(
	eq(contentRevisions.entryId, contentEntries.id),
	eq(contentRevisions.n, contentEntries.liveRevision)
);
/** Every change to an entry moves its version: a write made from an older one is refused. */
const nextVersion = sql`${contentEntries.version} + 1`;

/** Every page's and the company file's live fields: what the public site reads (a few dozen kilobytes). */
export function selectLiveFixed(db: DbOrTx) {
	return db
		.select({ id: contentEntries.id, fields: contentRevisions.fields })
		.from(contentEntries)
		.innerJoin(contentRevisions, liveRevision)
		.where(inArray(contentEntries.kind, ['page', 'company']));
}

/** Inserts an entry and its revision 1 unless an entry of that id exists (a concurrent start did it first). */
export async function insertSeedEntry(
	db: DbOrTx,
	entry: { id: string; kind: string; path: string | null; fields: unknown }
): Promise<boolean> {
	return db.transaction(async (tx) => {
		const inserted = await tx
			.insert(contentEntries)
			.values({ id: entry.id, kind: entry.kind, path: entry.path, liveRevision: 1 })
			.onConflictDoNothing()
			.returning({ id: contentEntries.id });
		if (!inserted.length) return false;
		await tx.insert(contentRevisions).values({ entryId: entry.id, n: 1, fields: entry.fields });
		return true;
	});
}

export function listEntries(db: DbOrTx) {
	return db
		.select({
			id: contentEntries.id,
			path: contentEntries.path,
			kind: contentEntries.kind,
			version: contentEntries.version,
			liveRevision: contentEntries.liveRevision,
			hasDraft: sql<boolean>`${contentEntries.draft} is not null`,
			draftSavedAt: contentEntries.draftSavedAt,
			draftSavedBy: users.email,
			updatedAt: contentEntries.updatedAt,
			liveTitle: sql<string | null>`${contentRevisions.fields}->>'title'`,
			draftTitle: sql<string | null>`${contentEntries.draft}->>'title'`
		})
		.from(contentEntries)
		.leftJoin(contentRevisions, liveRevision)
		.leftJoin(users, eq(users.id, contentEntries.draftSavedBy))
		.orderBy(contentEntries.kind, contentEntries.createdAt, contentEntries.id);
}

/** One entry; `lock` holds its row until the transaction ends (a write compares its version with it). */
export async function entryById(db: DbOrTx, id: string, lock = false): Promise<EntryRow | null> {
	const query = db.select().from(contentEntries).where(eq(contentEntries.id, id));
	const [row] = await (lock ? query.for('update') : query);
	return row ?? null;
}

export async function revisionFields(db: DbOrTx, id: string, n: number): Promise<unknown | null> {
	const [row] = await db
		.select({ fields: contentRevisions.fields })
		.from(contentRevisions)
		.where(and(eq(contentRevisions.entryId, id), eq(contentRevisions.n, n)));
	return row ? row.fields : null;
}

export function revisionsOf(db: DbOrTx, id: string) {
	return db
		.select({ n: contentRevisions.n, publishedAt: contentRevisions.publishedAt, publishedBy: users.email })
		.from(contentRevisions)
		.leftJoin(users, eq(users.id, contentRevisions.publishedBy))
		.where(eq(contentRevisions.entryId, id))
		.orderBy(desc(contentRevisions.n));
}

/**
 * Saves a draft if the entry is still at `version` (one statement: two saves from the same version cannot both
 * pass). Returns the new version, or null when the entry moved on or is gone.
 */
export async function saveDraft(
	db: DbOrTx,
	id: string,
	version: number,
	draft: unknown,
	savedBy: string
): Promise<number | null> {
	const [row] = await db
		.update(contentEntries)
		.set({
			draft,
			draftSavedAt: sql`now()`,
			draftSavedBy: savedBy,
			updatedAt: sql`now()`,
			version: nextVersion
		})
		.where(and(eq(contentEntries.id, id), eq(contentEntries.version, version)))
		.returning({ version: contentEntries.version });
	return row?.version ?? null;
}

/** Drops the draft (« Annuler les modifications »), if the entry is still at `version`. */
export async function discardDraft(db: DbOrTx, id: string, version: number): Promise<number | null> {
	const [row] = await db
		.update(contentEntries)
		.set({
			draft: null,
			draftSavedAt: null,
			draftSavedBy: null,
			updatedAt: sql`now()`,
			version: nextVersion
		})
		.where(and(eq(contentEntries.id, id), eq(contentEntries.version, version)))
		.returning({ version: contentEntries.version });
	return row?.version ?? null;
}

/**
 * Makes `fields` the entry's next live revision, at `path`, and drops its draft. Run in the transaction that
 * locked the entry (`entryById(tx, id, true)`).
 */
export async function insertRevision(
	tx: DbOrTx,
	id: string,
	fields: unknown,
	path: string | null,
	publishedBy: string
): Promise<{ n: number; version: number }> {
	const [{ next }] = (await tx
		.select({ next: sql<number>`coalesce(max(${contentRevisions.n}), 0) + 1` })
		.from(contentRevisions)
		.where(eq(contentRevisions.entryId, id))) as [{ next: number }];
	const n = Number(next);
	await tx.insert(contentRevisions).values({ entryId: id, n, fields, publishedBy });
	const [row] = await tx
		.update(contentEntries)
		.set({
			liveRevision: n,
			path,
			draft: null,
			draftSavedAt: null,
			draftSavedBy: null,
			updatedAt: sql`now()`,
			firstPublishedAt: sql`coalesce(${contentEntries.firstPublishedAt}, now())`,
			version: nextVersion
		})
		.where(eq(contentEntries.id, id))
		.returning({ version: contentEntries.version });
	return { n, version: row!.version };
}

/** Whether another entry is served at `path`. */
export async function pathTaken(db: DbOrTx, path: string, exceptId: string): Promise<boolean> {
	const [row] = await db
		.select({ id: contentEntries.id })
		.from(contentEntries)
		.where(eq(contentEntries.path, path));
	return !!row && row.id !== exceptId;
}

export async function insertArticle(
	db: DbOrTx,
	id: string,
	path: string,
	draft: unknown,
	savedBy: string
): Promise<EntryRow | null> {
	const [row] = await db
		.insert(contentEntries)
		.values({ id, kind: 'article', path, draft, draftSavedAt: sql`now()`, draftSavedBy: savedBy })
		.onConflictDoNothing()
		.returning();
	return row ?? null;
}

export async function deleteEntry(db: DbOrTx, id: string): Promise<void> {
	await db.delete(contentEntries).where(eq(contentEntries.id, id));
}

/**
 * `from` now answers 301 to `to`: every redirect that led to `from` leads to `to` (chains collapse), and a
 * redirect from `to` goes (the page lives there now: what would have been a loop).
 */
export async function moveAddress(tx: DbOrTx, from: string, to: string): Promise<void> {
	await tx.delete(contentRedirects).where(eq(contentRedirects.fromPath, to));
	await tx.update(contentRedirects).set({ toPath: to }).where(eq(contentRedirects.toPath, from));
	await tx
		.insert(contentRedirects)
		.values({ fromPath: from, toPath: to })
		.onConflictDoUpdate({ target: contentRedirects.fromPath, set: { toPath: to, createdAt: sql`now()` } });
}

/** A redirect from a path no entry is served at any more (an entry's own path wins). */
export async function redirectFrom(tx: DbOrTx, path: string): Promise<string | null> {
	const [row] = await tx
		.select({ to: contentRedirects.toPath })
		.from(contentRedirects)
		.where(eq(contentRedirects.fromPath, path));
	return row?.to ?? null;
}

/** The addresses an entry was published at, revision by revision (its number, slug and publication). */
export function slugHistory(db: DbOrTx, entryId: string) {
	return db
		.select({
			n: contentRevisions.n,
			slug: sql<string | null>`${contentRevisions.fields}->>'slug'`,
			publishedAt: contentRevisions.publishedAt
		})
		.from(contentRevisions)
		.where(eq(contentRevisions.entryId, entryId))
		.orderBy(contentRevisions.n);
}

/** A redirect that would start at an address now served by an entry goes. */
export async function dropRedirectFrom(tx: DbOrTx, path: string): Promise<void> {
	await tx.delete(contentRedirects).where(eq(contentRedirects.fromPath, path));
}

const publishedArticle = and(eq(contentEntries.kind, 'article'), isNotNull(contentEntries.liveRevision));

/** What each list of published articles reads first: the entry, its live revision, its dates. */
const articleRow = {
	id: contentEntries.id,
	revision: contentRevisions.n,
	path: contentEntries.path,
	publishedAt: contentEntries.firstPublishedAt,
	updatedAt: contentRevisions.publishedAt
};
const newestFirst = [desc(contentEntries.firstPublishedAt), desc(contentEntries.id)] as const;

/**
 * Published articles, newest first: what a card shows (title, description, cover) — never the body, which a list
 * does not show (ten 60,000-character bodies made `/blog` read and render 600 KB per view).
 */
export function publishedArticleCards(db: DbOrTx, limit: number, offset = 0) {
	return db
		.select({
			...articleRow,
			fields: sql<unknown>`jsonb_build_object('title', ${contentRevisions.fields}->'title', 'description', ${contentRevisions.fields}->'description', 'cover', ${contentRevisions.fields}->'cover')`
		})
		.from(contentEntries)
		.innerJoin(contentRevisions, liveRevision)
		.where(publishedArticle)
		.orderBy(...newestFirst)
		.limit(limit)
		.offset(offset);
}

/** The newest published articles whole, body included: the feed's. */
export function publishedArticlesWhole(db: DbOrTx, limit: number) {
	return db
		.select({ ...articleRow, fields: contentRevisions.fields })
		.from(contentEntries)
		.innerJoin(contentRevisions, liveRevision)
		.where(publishedArticle)
		.orderBy(...newestFirst)
		.limit(limit);
}

/** Every published article's address and dates: the sitemap's lines. */
export function publishedArticlePaths(db: DbOrTx, limit: number) {
	const { path, publishedAt, updatedAt } = articleRow;
	return db
		.select({ path, publishedAt, updatedAt })
		.from(contentEntries)
		.innerJoin(contentRevisions, liveRevision)
		.where(publishedArticle)
		.orderBy(...newestFirst)
		.limit(limit);
}

export async function countPublishedArticles(db: DbOrTx): Promise<number> {
	const [row] = await db
		.select({ n: sql<number>`count(*)::int` })
		.from(contentEntries)
		.where(publishedArticle);
	return Number(row?.n ?? 0);
}

/** The article served at `path`, with its live fields (null when none, or never published). */
export async function articleAt(db: DbOrTx, path: string) {
	const [row] = await db
		.select({
			entry: contentEntries,
			fields: contentRevisions.fields,
			revision: contentRevisions.n,
			revisedAt: contentRevisions.publishedAt
		})
		.from(contentEntries)
		.leftJoin(contentRevisions, liveRevision)
		.where(and(eq(contentEntries.kind, 'article'), eq(contentEntries.path, path)));
	return row ?? null;
}

/** An article by the slug its draft names (a preview of an address not yet published). */
export async function articleByDraftSlug(db: DbOrTx, slug: string): Promise<EntryRow | null> {
	const [row] = await db
		.select()
		.from(contentEntries)
		.where(and(eq(contentEntries.kind, 'article'), sql`${contentEntries.draft}->>'slug' = ${slug}`))
		.limit(1);
	return row ?? null;
}

/** Drafts nobody has touched since `before`: what the dashboard's « À faire » mentions. */
export function draftsSavedBefore(db: DbOrTx, before: Date) {
	return db
		.select({
			id: contentEntries.id,
			path: contentEntries.path,
			kind: contentEntries.kind,
			title: sql<string | null>`${contentEntries.draft}->>'title'`,
			savedAt: contentEntries.draftSavedAt
		})
		.from(contentEntries)
		.where(and(isNotNull(contentEntries.draft), lt(contentEntries.draftSavedAt, before)))
		.orderBy(contentEntries.draftSavedAt);
}

/** Sets when the entry's draft goes live by itself, if `version` is still the entry's; the new version, or null. */
export async function setSchedule(
	db: DbOrTx,
	id: string,
	version: number,
	at: Date,
	by: string
): Promise<number | null> {
	const [row] = await db
		.update(contentEntries)
		.set({ scheduledAt: at, scheduledBy: by, version: nextVersion, updatedAt: new Date() })
		.where(and(eq(contentEntries.id, id), eq(contentEntries.version, version)))
		.returning({ version: contentEntries.version });
	return row?.version ?? null;
}

/** Drops the entry's schedule; when it had one, the time it was set for. */
export async function clearSchedule(db: DbOrTx, id: string): Promise<Date | null> {
	const [before] = await db
		.select({ at: contentEntries.scheduledAt })
		.from(contentEntries)
		.where(eq(contentEntries.id, id))
		.for('update');
	if (!before?.at) return null;
	await db
		.update(contentEntries)
		.set({ scheduledAt: null, scheduledBy: null })
		.where(eq(contentEntries.id, id));
	return before.at;
}

/**
 * The first entry due by `now`, locked for this transaction — another instance's transaction skips it rather than
 * wait, so that each is published once however many instances look at the same minute.
 */
export async function lockDue(tx: DbOrTx, now: Date): Promise<EntryRow | null> {
	const [row] = await tx
		.select()
		.from(contentEntries)
		.where(and(isNotNull(contentEntries.scheduledAt), lte(contentEntries.scheduledAt, now)))
		.orderBy(contentEntries.scheduledAt)
		.limit(1)
		.for('update', { skipLocked: true });
	return row ?? null;
}

/** What is scheduled, soonest first, with who scheduled it: the dashboard's « À faire » and the editor. */
export function scheduledEntries(db: DbOrTx) {
	return db
		.select({
			id: contentEntries.id,
			kind: contentEntries.kind,
			path: contentEntries.path,
			title: sql<string | null>`coalesce(${contentEntries.draft}->>'title', '')`,
			at: contentEntries.scheduledAt,
			by: users.email
		})
		.from(contentEntries)
		.leftJoin(users, eq(users.id, contentEntries.scheduledBy))
		.where(isNotNull(contentEntries.scheduledAt))
		.orderBy(contentEntries.scheduledAt);
}

/** An admin's e-mail by id (the one who scheduled a publish), or null when the account is gone. */
export async function adminEmail(db: DbOrTx, id: string): Promise<string | null> {
	const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, id));
	return row?.email ?? null;
}
