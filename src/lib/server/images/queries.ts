/** The images domain's SQL, and nothing else: each function takes the database or a transaction. */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { contentEntries, contentRevisions, siteImages } from '../db/schema';

export type StoredValues = Map<
	string,
	{ url: string; alt: string | null; width: number | null; updatedAt: Date }
>;

/** Every slot that has a value of its own (the others show their stock image). */
export async function selectSlotValues(db: DbOrTx): Promise<StoredValues> {
	const rows = await db.select().from(siteImages);
	return new Map(
		rows.map((r) => [r.key, { url: r.url, alt: r.alt, width: r.width, updatedAt: r.updatedAt }])
	);
}

export const selectSlotValue = async (db: DbOrTx, key: string) =>
	(await db.select().from(siteImages).where(eq(siteImages.key, key)))[0] ?? null;

export async function deleteSlotValue(db: DbOrTx, key: string): Promise<void> {
	await db.delete(siteImages).where(eq(siteImages.key, key));
}

/** Sets a slot's value; returns when it was recorded. */
export async function upsertSlotValue(
	db: DbOrTx,
	key: string,
	url: string,
	alt: string | null,
	width: number | null,
	adminId: string
): Promise<Date> {
	const now = new Date();
	const [row] = await db
		.insert(siteImages)
		.values({ key, url, alt, width, updatedAt: now, updatedBy: adminId })
		.onConflictDoUpdate({
			target: siteImages.key,
			set: { url, alt, width, updatedAt: now, updatedBy: adminId }
		})
		.returning({ updatedAt: siteImages.updatedAt });
	return row!.updatedAt;
}

/**
 * Whether a stored photo is still shown or could be again: a slot's value, or a cover in a page's draft or in any
 * revision (« Restaurer » may bring it back). Read from the content's tables, never written: a replaced slot photo
 * that nothing names is deleted (service.ts `deleteIfUnused`). The value is matched as a JSON string, quotes
 * included: one photo's name is never part of another's.
 */
export async function photoInUse(db: DbOrTx, value: string): Promise<boolean> {
	const quoted = `%${JSON.stringify(value)}%`;
	const [row] = await db
		.select({
			used: sql<boolean>`exists (select 1 from ${siteImages} where ${siteImages.url} = ${value})
				or exists (select 1 from ${contentEntries} where ${contentEntries.draft}::text like ${quoted})
				or exists (select 1 from ${contentRevisions} where ${contentRevisions.fields}::text like ${quoted})`
		})
		.from(sql`(select 1) as one`);
	return row?.used === true;
}
