/**
 * The audience's daily counts, written in one statement (both tables, through data-modifying CTEs), and their
 * deletion past the retention. Every batch writes its rows in key order: two instances writing at once lock them in
 * the same order, and wait for each other instead of deadlocking.
 */
import { lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import {
	audienceCampaigns,
	audienceDaily,
	audienceDevices,
	audienceEvents,
	audiencePages,
	audienceSources,
	audienceVisitors
} from '../../db/schema';
import { visitOfKey, type PendingCounts } from '../audience';
import { SOURCE } from './source';

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
			visitors: row.visitors,
			entries: row.entries
		};
	});
	const days = [...counts.days].map(([day, visitors]) => ({ day, visitors }));
	const pages = [...counts.pages].map(([key, visitors]) => {
		const [day, path] = key.split('\u0001');
		return { day, path, visitors };
	});
	const events = [...counts.events].map(([key, count]) => {
		const [day, kind] = key.split('\u0001');
		return { day, kind, count };
	});
	if (!rows.length && !days.length && !events.length) return;
	await db.execute(sql`
		with batch as (
			select * from json_to_recordset(${JSON.stringify(rows)}::json) as r(
				day date, path text, referrer_host text, utm_source text, utm_medium text, utm_campaign text,
				device text, views integer, visitors integer, entries integer)
		), added_rows as (
			insert into ${audienceDaily}
				(day, path, referrer_host, utm_source, utm_medium, utm_campaign, device, views, visitors, entries)
			select * from batch order by day, path, referrer_host, utm_source, utm_medium, utm_campaign, device
			on conflict on constraint audience_daily_pk do update set
				views = ${audienceDaily}.views + excluded.views,
				visitors = ${audienceDaily}.visitors + excluded.visitors,
				entries = ${audienceDaily}.entries + excluded.entries
			returning 1
		), added_pages as (
			insert into ${audiencePages} (day, path, views, visitors, entries)
			select b.day, b.path, b.views, coalesce(p.visitors, 0), b.entries
			from (select day, path, sum(views) as views, sum(entries) as entries from batch group by day, path) as b
			left join json_to_recordset(${JSON.stringify(pages)}::json) as p(day date, path text, visitors integer)
				on p.day = b.day and p.path = b.path
			order by 1, 2
			on conflict on constraint audience_pages_pk do update set
				views = ${audiencePages}.views + excluded.views,
				visitors = ${audiencePages}.visitors + excluded.visitors,
				entries = ${audiencePages}.entries + excluded.entries
			returning 1
		), added_sources as (
			insert into ${audienceSources} (day, source, views, visits)
			select day, ${SOURCE}, sum(views), sum(entries)
			from batch group by 1, 2 order by 1, 2
			on conflict on constraint audience_sources_pk do update set
				views = ${audienceSources}.views + excluded.views,
				visits = ${audienceSources}.visits + excluded.visits
			returning 1
		), added_devices as (
			insert into ${audienceDevices} (day, device, views, visits)
			select day, device, sum(views), sum(entries)
			from batch group by 1, 2 order by 1, 2
			on conflict on constraint audience_devices_pk do update set
				views = ${audienceDevices}.views + excluded.views,
				visits = ${audienceDevices}.visits + excluded.visits
			returning 1
		), added_campaigns as (
			insert into ${audienceCampaigns} (day, campaign, medium, views, visits)
			select day, utm_campaign, utm_medium, sum(views), sum(entries)
			from batch where utm_campaign <> '' group by 1, 2, 3 order by 1, 2, 3
			on conflict on constraint audience_campaigns_pk do update set
				views = ${audienceCampaigns}.views + excluded.views,
				visits = ${audienceCampaigns}.visits + excluded.visits
			returning 1
		), totals as (
			select coalesce(b.day, d.day) as day, coalesce(d.visitors, 0) as visitors, coalesce(b.views, 0) as views,
				coalesce(b.visits, 0) as visits
			from (select day, sum(views)::int as views, sum(entries)::int as visits from batch group by day) as b
			full join json_to_recordset(${JSON.stringify(days)}::json) as d(day date, visitors integer) on d.day = b.day
		), added_days as (
			insert into ${audienceVisitors} (day, visitors, views, visits)
			select day, visitors, views, visits from totals
			on conflict (day) do update set
				visitors = ${audienceVisitors}.visitors + excluded.visitors,
				views = ${audienceVisitors}.views + excluded.views,
				visits = ${audienceVisitors}.visits + excluded.visits
			returning 1
		), added_events as (
			insert into ${audienceEvents} (day, kind, count)
			select * from json_to_recordset(${JSON.stringify(events)}::json) as e(day date, kind text, count integer)
			on conflict on constraint audience_events_pk do update set count = ${audienceEvents}.count + excluded.count
			returning 1
		)
		select (select count(*) from added_rows) as rows, (select count(*) from added_pages) as pages,
			(select count(*) from added_sources) as sources, (select count(*) from added_devices) as devices,
			(select count(*) from added_campaigns) as campaigns,
			(select count(*) from added_days) as days,
			(select count(*) from added_events) as events`);
}

/** Counts older than `day` (YYYY-MM-DD) are deleted: the retention of 25 months. */
export async function deleteCountsBefore(db: DbOrTx, day: string): Promise<number> {
	const rows = await db
		.delete(audienceDaily)
		.where(lt(audienceDaily.day, day))
		.returning({ day: audienceDaily.day });
	await db.delete(audienceVisitors).where(lt(audienceVisitors.day, day));
	await db.delete(audiencePages).where(lt(audiencePages.day, day));
	await db.delete(audienceSources).where(lt(audienceSources.day, day));
	await db.delete(audienceDevices).where(lt(audienceDevices.day, day));
	await db.delete(audienceCampaigns).where(lt(audienceCampaigns.day, day));
	await db.delete(audienceEvents).where(lt(audienceEvents.day, day));
	return rows.length;
}
