/** The insights domain's SQL: the audience's daily counts, written in one statement, read for the dashboard. */
import { lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { audienceDaily, audienceEvents, audienceVisitors } from '../db/schema';
import { visitOfKey, type PendingCounts } from './audience';

/**
 * Adds a batch of counts to the daily tables in one statement (both tables, through data-modifying CTEs), whatever
 * the batch's size: the rows travel as one JSON parameter. Instances add up: each adds its own counts.
 */
export async function addCounts(db: DbOrTx, counts: PendingCounts): Promise<void> {
	const rows = [...counts.rows].map(([key, row]) => {
		const visit = visitOfKey(key);
		return {
			day: visit.day,
			path: visit.path,
			referrer_host: visit.referrerHost,
			utm_source: visit.utmSource,
			utm_medium: visit.utmMedium,
			utm_campaign: visit.utmCampaign,
			device: visit.device,
			views: row.views,
			visitors: row.visitors
		};
	});
	const days = [...counts.days].map(([day, visitors]) => ({ day, visitors }));
	const events = [...counts.events].map(([key, count]) => {
		const [day, kind] = key.split('\u0001');
		return { day, kind, count };
	});
	if (!rows.length && !days.length && !events.length) return;
	await db.execute(sql`
		with added_rows as (
			insert into ${audienceDaily}
				(day, path, referrer_host, utm_source, utm_medium, utm_campaign, device, views, visitors)
			select * from json_to_recordset(${JSON.stringify(rows)}::json) as r(
				day date, path text, referrer_host text, utm_source text, utm_medium text, utm_campaign text,
				device text, views integer, visitors integer)
			on conflict on constraint audience_daily_pk do update set
				views = ${audienceDaily}.views + excluded.views,
				visitors = ${audienceDaily}.visitors + excluded.visitors
			returning 1
		), added_days as (
			insert into ${audienceVisitors} (day, visitors)
			select * from json_to_recordset(${JSON.stringify(days)}::json) as d(day date, visitors integer)
			on conflict (day) do update set visitors = ${audienceVisitors}.visitors + excluded.visitors
			returning 1
		), added_events as (
			insert into ${audienceEvents} (day, kind, count)
			select * from json_to_recordset(${JSON.stringify(events)}::json) as e(day date, kind text, count integer)
			on conflict on constraint audience_events_pk do update set count = ${audienceEvents}.count + excluded.count
			returning 1
		)
		select (select count(*) from added_rows) as rows, (select count(*) from added_days) as days,
			(select count(*) from added_events) as events`);
}

/** Counts older than `day` (YYYY-MM-DD) are deleted: the retention of 25 months. */
export async function deleteCountsBefore(db: DbOrTx, day: string): Promise<number> {
	const rows = await db
		.delete(audienceDaily)
		.where(lt(audienceDaily.day, day))
		.returning({ day: audienceDaily.day });
	await db.delete(audienceVisitors).where(lt(audienceVisitors.day, day));
	await db.delete(audienceEvents).where(lt(audienceEvents.day, day));
	return rows.length;
}
