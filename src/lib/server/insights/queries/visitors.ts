/**
 * The day's salt and visitors, shared by the instances (visits.ts): who landed where, counted once a day.
 */
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { rowsOf } from '../../db/migrate';
import { audienceLandings, audienceSalts, audienceVisitorRows } from '../../db/schema';
import { type Landing } from '../attribution';

/**
 * The day's salt; with `create`, the first instance to ask makes it (a random value: a race between instances keeps
 * one). Null when there is none and none is to be made.
 */
export async function daySalt(db: DbOrTx, day: string, create: string | null): Promise<string | null> {
	if (create !== null) await db.insert(audienceSalts).values({ day, salt: create }).onConflictDoNothing();
	const [row] = await db
		.select({ salt: audienceSalts.salt })
		.from(audienceSalts)
		.where(eq(audienceSalts.day, day));
	return row?.salt ?? null;
}

/** Where these visitors of the day stand, for those any instance has seen. */
export async function landingsOf(db: DbOrTx, day: string, visitors: string[]): Promise<Map<string, Landing>> {
	const found = new Map<string, Landing>();
	for (let i = 0; i < visitors.length; i += 5_000) {
		const rows = await db
			.select()
			.from(audienceLandings)
			.where(
				and(eq(audienceLandings.day, day), inArray(audienceLandings.visitor, visitors.slice(i, i + 5_000)))
			);
		for (const row of rows)
			found.set(row.visitor, {
				visit: {
					referrerHost: row.visitReferrerHost,
					utmSource: row.visitUtmSource,
					utmMedium: row.visitUtmMedium,
					utmCampaign: row.visitUtmCampaign
				},
				first: {
					path: row.firstPath,
					referrerHost: row.firstReferrerHost,
					utmSource: row.firstUtmSource,
					utmMedium: row.firstUtmMedium,
					utmCampaign: row.firstUtmCampaign
				}
			});
	}
	return found;
}

/**
 * Writes the visits that began: each visitor's current visit, and their first landing unless the one kept already
 * came from another site or a campaign (another instance may have written it meanwhile). Returns how many of them no
 * instance had seen before: the day's new visitors.
 */
export async function writeLandings(
	db: DbOrTx,
	day: string,
	landings: Map<string, Landing>
): Promise<number> {
	if (!landings.size) return 0;
	const rows = [...landings].map(([visitor, { visit, first }]) => ({
		visitor,
		visit_referrer_host: visit.referrerHost,
		visit_utm_source: visit.utmSource,
		visit_utm_medium: visit.utmMedium,
		visit_utm_campaign: visit.utmCampaign,
		first_path: first.path,
		first_referrer_host: first.referrerHost,
		first_utm_source: first.utmSource,
		first_utm_medium: first.utmMedium,
		first_utm_campaign: first.utmCampaign
	}));
	// The first landing is kept once it came from another site or a campaign; a direct one gives way.
	const firstOf = (column: string) =>
		sql.raw(`case when (audience_landings.first_referrer_host <> '' or audience_landings.first_utm_source <> '')
			then audience_landings.${column} else excluded.${column} end`);
	const inserted = rowsOf<{ inserted: boolean }>(
		await db.execute(sql`
			insert into ${audienceLandings} (day, visitor, visit_referrer_host, visit_utm_source, visit_utm_medium,
				visit_utm_campaign, first_path, first_referrer_host, first_utm_source, first_utm_medium, first_utm_campaign)
			select ${day}::date, r.* from json_to_recordset(${JSON.stringify(rows)}::json) as r(
				visitor text, visit_referrer_host text, visit_utm_source text, visit_utm_medium text,
				visit_utm_campaign text, first_path text, first_referrer_host text, first_utm_source text,
				first_utm_medium text, first_utm_campaign text)
			order by r.visitor
			on conflict on constraint audience_landings_pk do update set
				visit_referrer_host = excluded.visit_referrer_host,
				visit_utm_source = excluded.visit_utm_source,
				visit_utm_medium = excluded.visit_utm_medium,
				visit_utm_campaign = excluded.visit_utm_campaign,
				first_path = ${firstOf('first_path')},
				first_referrer_host = ${firstOf('first_referrer_host')},
				first_utm_source = ${firstOf('first_utm_source')},
				first_utm_medium = ${firstOf('first_utm_medium')},
				first_utm_campaign = ${firstOf('first_utm_campaign')}
			returning (xmax = 0) as inserted`)
	);
	return inserted.filter((row) => row.inserted).length;
}

/** Records which rows each visitor was counted in; returns, per row hash, how many were not already. */
export async function addVisitorRows(
	db: DbOrTx,
	day: string,
	pairs: { visitor: string; row: string }[]
): Promise<Map<string, number>> {
	const added = new Map<string, number>();
	if (!pairs.length) return added;
	const rows = rowsOf<{ row: string }>(
		await db.execute(sql`
			insert into ${audienceVisitorRows} (day, visitor, row)
			select ${day}::date, p.visitor, p.row from json_to_recordset(${JSON.stringify(pairs)}::json) as p(visitor text, row text)
			order by p.visitor, p.row
			on conflict on constraint audience_visitor_rows_pk do nothing
			returning row`)
	);
	for (const { row } of rows) added.set(row, (added.get(row) ?? 0) + 1);
	return added;
}

/** Deletes the salts, landings and visitors' rows of the days before `day`: nothing links them to anyone after. */
export async function forgetDaysBefore(db: DbOrTx, day: string): Promise<void> {
	await db.delete(audienceVisitorRows).where(lt(audienceVisitorRows.day, day));
	await db.delete(audienceLandings).where(lt(audienceLandings.day, day));
	await db.delete(audienceSalts).where(lt(audienceSalts.day, day));
}
