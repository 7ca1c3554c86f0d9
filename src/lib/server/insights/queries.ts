/**
 * The insights domain's SQL: the audience's daily counts, written in one statement, read for the dashboard; the
 * day's salt and visitors, shared by the instances. Every batch writes its rows in key order: two instances writing at
 * once lock them in the same order, and wait for each other instead of deadlocking.
 */
import { and, eq, inArray, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { rowsOf } from '../db/migrate';
import {
	audienceCampaigns,
	audienceDaily,
	audienceDevices,
	audienceEvents,
	audienceLandings,
	audiencePages,
	audienceSalts,
	audienceSources,
	audienceVisitorRows,
	audienceVisitors,
	candidatures,
	leads,
	memberships,
	moduleProgress
} from '../db/schema';
import type { AudienceFilter } from '../../dashboard-filter';
import { visitOfKey, type Device, type Landing, type PendingCounts } from './audience';

/**
 * A visit's source, the one rule for the rollup and the leads: the other site, else the campaign's utm_source,
 * else '' (direct). Over the columns of audience_daily, leads and candidatures alike.
 */
const SOURCE = sql.raw(`coalesce(nullif(referrer_host, ''), nullif(utm_source, ''), '')`);

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
			select day, path, sum(views), sum(visitors), sum(entries) from batch group by day, path order by 1, 2
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

// ——— The day's visitors, shared by every instance (visits.ts) ———

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

// ——— The dashboard's figures (dashboard.ts): each one query over a range of days ———

export interface DayRange {
	/** First and last day, YYYY-MM-DD, both included. */
	from: string;
	to: string;
}

const inRange = (column: SQLWrapper, range: DayRange) =>
	sql`${column} between ${range.from}::date and ${range.to}::date`;

/**
 * Whether the dashboard is narrowed (dashboard.ts `filterOf`): without a filter, the figures come from the rollups
 * (a year reads a few thousand rows); with one, from audience_daily through its indexes.
 */
export const isFiltered = (filter: AudienceFilter) =>
	filter.page !== undefined ||
	filter.source !== undefined ||
	filter.campaign !== undefined ||
	filter.device !== undefined;

/** audience_daily's rows in the range that the filter keeps. */
function dailyRowsWhere(range: DayRange, filter: AudienceFilter): SQL {
	const conditions = [inRange(audienceDaily.day, range)];
	if (filter.page !== undefined) conditions.push(sql`${audienceDaily.path} = ${filter.page}`);
	if (filter.source !== undefined) conditions.push(sql`${SOURCE} = ${filter.source}`);
	if (filter.campaign !== undefined) conditions.push(sql`${audienceDaily.utmCampaign} = ${filter.campaign}`);
	if (filter.device !== undefined) conditions.push(sql`${audienceDaily.device} = ${filter.device}`);
	return sql.join(conditions, sql` and `);
}

/**
 * Visitors as the filter allows them to be told: on a page, its rows' visitors (a visitor is counted once per row,
 * and a visitor's rows on one page differ only by a second visit's source); by a source, a campaign or a device, a
 * visitor is counted at each visit (the rows of one visitor on several pages cannot be added up).
 */
const filteredVisitors = (filter: AudienceFilter) =>
	filter.page !== undefined
		? sql<number>`coalesce(sum(${audienceDaily.visitors}), 0)::int`
		: sql<number>`coalesce(sum(${audienceDaily.entries}), 0)::int`;

/** A filtered view's figures, from one scan of the rows it keeps (the way a filter with many rows stays fast). */
export interface FilteredFigures {
	daily: DayTotals[];
	pages: { path: string; views: number; visitors: number }[];
	entries: { path: string; visits: number }[];
	sources: { source: string; visits: number; views: number }[];
	campaigns: { campaign: string; medium: string | null; visits: number; views: number }[];
	devices: { device: Device; visits: number; views: number }[];
}

/**
 * Every table of a filtered dashboard in one statement: the rows the filter keeps are read once and added up per
 * day, page, source, campaign and device (`grouping sets`), rather than once per table.
 */
export async function filteredFigures(
	db: DbOrTx,
	range: DayRange,
	filter: AudienceFilter,
	limit = 10
): Promise<FilteredFigures> {
	type Row = {
		set: number;
		day: string | null;
		path: string | null;
		source: string | null;
		campaign: string | null;
		device: Device | null;
		medium: string | null;
		views: number;
		visitors: number;
		row_visitors: number;
		visits: number;
	};
	const rows = rowsOf<Row>(
		await db.execute(sql`
			select grouping(${audienceDaily.day}, ${audienceDaily.path}, ${SOURCE}, ${audienceDaily.utmCampaign},
					${audienceDaily.device})::int as set,
				${audienceDaily.day}::text as day, ${audienceDaily.path} as path, ${SOURCE} as source,
				${audienceDaily.utmCampaign} as campaign, ${audienceDaily.device} as device,
				string_agg(distinct nullif(${audienceDaily.utmMedium}, ''), ', ') as medium,
				sum(${audienceDaily.views})::int as views, ${filteredVisitors(filter)} as visitors,
				sum(${audienceDaily.visitors})::int as row_visitors, sum(${audienceDaily.entries})::int as visits
			from ${audienceDaily}
			where ${dailyRowsWhere(range, filter)}
			group by grouping sets ((${audienceDaily.day}), (${audienceDaily.path}), (${SOURCE}),
				(${audienceDaily.utmCampaign}), (${audienceDaily.device}))`)
	);
	// grouping() sets a bit for each column left out, the first column the highest: 0b01111 is « per day ».
	const of = (column: number) => rows.filter((row) => row.set === 0b11111 - (1 << (4 - column)));
	const top = <T>(items: T[], ...keys: ((item: T) => number | string)[]) =>
		items
			.sort((a, b) => {
				for (const key of keys) {
					const [x, y] = [key(a), key(b)];
					if (x !== y) return typeof x === 'number' ? (y as number) - x : x < y ? -1 : 1;
				}
				return 0;
			})
			.slice(0, limit);
	return {
		daily: of(0).map((r) => ({ day: r.day!, views: r.views, visitors: r.visitors, visits: r.visits })),
		pages: top(
			of(1).map((r) => ({ path: r.path!, views: r.views, visitors: r.row_visitors })),
			(p) => p.views,
			(p) => p.path
		),
		entries: top(
			of(1)
				.filter((r) => r.visits > 0)
				.map((r) => ({ path: r.path!, visits: r.visits })),
			(p) => p.visits,
			(p) => p.path
		),
		sources: top(
			of(2).map((r) => ({ source: r.source!, visits: r.visits, views: r.views })),
			(s) => s.visits,
			(s) => s.views,
			(s) => s.source
		),
		campaigns: top(
			of(3)
				.filter((r) => r.campaign)
				.map((r) => ({ campaign: r.campaign!, medium: r.medium, visits: r.visits, views: r.views })),
			(c) => c.visits,
			(c) => c.views,
			(c) => c.campaign
		),
		devices: top(
			of(4).map((r) => ({ device: r.device!, visits: r.visits, views: r.views })),
			(d) => d.visits,
			(d) => d.views,
			(d) => d.device
		)
	};
}

export interface DayTotals {
	day: string;
	views: number;
	visitors: number;
	visits: number;
}

/** Page views, visitors and visits per day (days without a visit are absent). */
export async function totalsPerDay(
	db: DbOrTx,
	range: DayRange,
	filter: AudienceFilter = {}
): Promise<DayTotals[]> {
	if (!isFiltered(filter))
		return db
			.select({
				day: audienceVisitors.day,
				views: audienceVisitors.views,
				visitors: audienceVisitors.visitors,
				visits: audienceVisitors.visits
			})
			.from(audienceVisitors)
			.where(inRange(audienceVisitors.day, range));
	return db
		.select({
			day: audienceDaily.day,
			views: sql<number>`sum(${audienceDaily.views})::int`,
			visitors: filteredVisitors(filter),
			visits: sql<number>`sum(${audienceDaily.entries})::int`
		})
		.from(audienceDaily)
		.where(dailyRowsWhere(range, filter))
		.groupBy(audienceDaily.day);
}

/**
 * The most viewed pages and the pages visits began on, from one scan of the page rollup: each page's sums, ranked
 * both ways, the first `limit` of either kept.
 */
export async function pagesAndEntries(db: DbOrTx, range: DayRange, limit = 10) {
	const rows = rowsOf<{
		path: string;
		views: number;
		visitors: number;
		visits: number;
		by_views: number;
		by_visits: number;
	}>(
		await db.execute(sql`
			select * from (
				select ${audiencePages.path} as path, sum(${audiencePages.views})::int as views,
					sum(${audiencePages.visitors})::int as visitors, sum(${audiencePages.entries})::int as visits,
					row_number() over (order by sum(${audiencePages.views}) desc, ${audiencePages.path})::int as by_views,
					row_number() over (order by sum(${audiencePages.entries}) desc, ${audiencePages.path})::int as by_visits
				from ${audiencePages}
				where ${inRange(audiencePages.day, range)}
				group by ${audiencePages.path}
			) as ranked
			where by_views <= ${limit} or by_visits <= ${limit}`)
	);
	return {
		pages: rows
			.filter((r) => r.by_views <= limit)
			.sort((a, b) => a.by_views - b.by_views)
			.map(({ path, views, visitors }) => ({ path, views, visitors })),
		entries: rows
			.filter((r) => r.by_visits <= limit && r.visits > 0)
			.sort((a, b) => a.by_visits - b.by_visits)
			.map(({ path, visits }) => ({ path, visits }))
	};
}

/**
 * Where visits came from: the other site, else the campaign's utm_source, else '' (direct), with their visits and
 * the pages they viewed (every page of a visit counts under its source).
 */
export const topSources = (db: DbOrTx, range: DayRange, limit = 10) =>
	db
		.select({
			source: audienceSources.source,
			visits: sql<number>`sum(${audienceSources.visits})::int`,
			views: sql<number>`sum(${audienceSources.views})::int`
		})
		.from(audienceSources)
		.where(inRange(audienceSources.day, range))
		.groupBy(audienceSources.source)
		.orderBy(sql`2 desc`, sql`3 desc`, audienceSources.source)
		.limit(limit);

/** The campaigns links carried (`utm_campaign`), each with its medium(s), their visits and pages viewed. */
export const topCampaigns = (db: DbOrTx, range: DayRange, limit = 10) =>
	db
		.select({
			campaign: audienceCampaigns.campaign,
			medium: sql<string | null>`string_agg(distinct nullif(${audienceCampaigns.medium}, ''), ', ')`,
			visits: sql<number>`sum(${audienceCampaigns.visits})::int`,
			views: sql<number>`sum(${audienceCampaigns.views})::int`
		})
		.from(audienceCampaigns)
		.where(inRange(audienceCampaigns.day, range))
		.groupBy(audienceCampaigns.campaign)
		.orderBy(sql`3 desc`, sql`4 desc`, audienceCampaigns.campaign)
		.limit(limit);

/** Visits and pages viewed per device class. */
export const devices = (db: DbOrTx, range: DayRange) =>
	db
		.select({
			device: audienceDevices.device,
			visits: sql<number>`sum(${audienceDevices.visits})::int`,
			views: sql<number>`sum(${audienceDevices.views})::int`
		})
		.from(audienceDevices)
		.where(inRange(audienceDevices.day, range))
		.groupBy(audienceDevices.device)
		.orderBy(sql`2 desc`, sql`3 desc`, audienceDevices.device);

export async function visitsOf(db: DbOrTx, range: DayRange, path: string) {
	const [row] = await db
		.select({
			views: sql<number>`coalesce(sum(${audiencePages.views}), 0)::int`,
			visitors: sql<number>`coalesce(sum(${audiencePages.visitors}), 0)::int`
		})
		.from(audiencePages)
		.where(sql`${inRange(audiencePages.day, range)} and ${audiencePages.path} = ${path}`);
	return row ?? { views: 0, visitors: 0 };
}

export async function eventsOf(db: DbOrTx, range: DayRange, kind: string): Promise<number> {
	const [row] = await db
		.select({ n: sql<number>`coalesce(sum(${audienceEvents.count}), 0)::int` })
		.from(audienceEvents)
		.where(
			sql`${audienceEvents.day} between ${range.from}::date and ${range.to}::date and ${audienceEvents.kind} = ${kind}`
		);
	return row?.n ?? 0;
}

/** The start of a range's first day in France, as a timestamp (for tables that keep times, not days). */
const parisStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'Europe/Paris'`;
const parisEnd = (day: string) => sql`((${day}::date + 1)::timestamp at time zone 'Europe/Paris')`;
const weekOf = (column: SQL) =>
	sql<string>`to_char(date_trunc('week', ${column} at time zone 'Europe/Paris'), 'YYYY-MM-DD')`;

/**
 * Leads (not spam) per week (its Monday) and source: the other site, else utm_source, else ''. The filter applies
 * as leads keep it: the page they were sent from, their source and campaign (a lead keeps no device).
 */
export function leadsPerWeekBySource(db: DbOrTx, range: DayRange, filter: AudienceFilter = {}) {
	const conditions = [
		sql`not spam and created_at >= ${parisStart(range.from)} and created_at < ${parisEnd(range.to)}`
	];
	if (filter.page !== undefined) conditions.push(sql`source_page = ${filter.page}`);
	if (filter.source !== undefined) conditions.push(sql`${SOURCE} = ${filter.source}`);
	if (filter.campaign !== undefined) conditions.push(sql`utm_campaign = ${filter.campaign}`);
	return db.execute<{ week: string; source: string; n: number }>(sql`
		select ${weekOf(sql`created_at`)} as week,
			${SOURCE} as source,
			count(*)::int as n
		from ${leads}
		where ${sql.join(conditions, sql` and `)}
		group by 1, 2 order by 1, 2`);
}

/** Leads (not spam) received in the range, filtered as leadsPerWeekBySource filters them. */
export async function leadCount(db: DbOrTx, range: DayRange, filter: AudienceFilter = {}): Promise<number> {
	const rows = rowsOf<{ n: number }>(await leadsPerWeekBySource(db, range, filter));
	return rows.reduce((sum, row) => sum + row.n, 0);
}

/** The candidature funnel's steps kept in their own tables: sent (not spam), approved, paid. */
export async function candidatureSteps(db: DbOrTx, range: DayRange) {
	const within = (column: SQL) =>
		sql`${column} >= ${parisStart(range.from)} and ${column} < ${parisEnd(range.to)}`;
	const [row] = await db
		.select({
			submitted: sql<number>`(select count(*)::int from ${candidatures} where not spam and ${within(sql`created_at`)})`,
			approved: sql<number>`(select count(*)::int from ${candidatures} where status in ('approved', 'enrolled') and ${within(sql`decided_at`)})`,
			paid: sql<number>`(select count(*)::int from ${memberships} where ${within(sql`created_at`)})`
		})
		.from(sql`(select 1) as one`);
	return row!;
}

/** Members: active now, new and ended in the range, and modules completed per week. */
export async function memberFigures(db: DbOrTx, range: DayRange) {
	const within = (column: SQL) =>
		sql`${column} >= ${parisStart(range.from)} and ${column} < ${parisEnd(range.to)}`;
	const [row] = await db
		.select({
			active: sql<number>`(select count(*)::int from ${memberships} where status in ('active', 'trialing', 'past_due'))`,
			started: sql<number>`(select count(*)::int from ${memberships} where ${within(sql`created_at`)})`,
			ended: sql<number>`(select count(*)::int from ${memberships} where status in ('canceled', 'unpaid', 'incomplete_expired') and ${within(sql`state_at`)})`
		})
		.from(sql`(select 1) as one`);
	const completed = await db.execute<{ week: string; n: number }>(sql`
		select ${weekOf(sql`completed_at`)} as week, count(*)::int as n from ${moduleProgress}
		where ${within(sql`completed_at`)} group by 1 order by 1`);
	return { ...row!, completedPerWeek: rowsOf<{ week: string; n: number }>(completed) };
}

// ——— The course's learners (/admin/suivi) ———

export interface LearnerRow {
	id: string;
	name: string;
	email: string;
	status: string;
	currentPeriodEnd: Date | null;
	memberSince: Date;
	completed: number;
	quizzesPassed: number;
	attempts: number;
	lastActivity: Date | null;
}

const asDate = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

/**
 * Every member (an account with a membership), with their progress over the published modules, their quiz results
 * and their last sign of work (a module completed, a quiz attempt, a video position kept). One statement.
 */
export async function learnerRows(db: DbOrTx): Promise<LearnerRow[]> {
	const rows = rowsOf<Record<string, unknown>>(
		await db.execute(sql`
			select u.id, u.name, u.email, m.status, m.current_period_end, m.created_at as member_since,
				(select count(*) from module_progress p join modules mo on mo.id = p.module_id and mo.published
					where p.user_id = u.id) as completed,
				(select count(distinct q.module_id) from quiz_attempts q where q.user_id = u.id and q.passed)
					as quizzes_passed,
				(select count(*) from quiz_attempts q where q.user_id = u.id) as attempts,
				greatest(
					(select max(p.completed_at) from module_progress p where p.user_id = u.id),
					(select max(q.created_at) from quiz_attempts q where q.user_id = u.id),
					(select max(v.updated_at) from video_positions v where v.user_id = u.id)
				) as last_activity
			from users u
			join lateral (
				select status, current_period_end, created_at from memberships
				where user_id = u.id order by created_at desc limit 1
			) m on true
			order by u.name`)
	);
	return rows.map((row) => ({
		id: String(row.id),
		name: String(row.name),
		email: String(row.email),
		status: String(row.status),
		currentPeriodEnd: asDate(row.current_period_end),
		memberSince: asDate(row.member_since)!,
		completed: Number(row.completed),
		quizzesPassed: Number(row.quizzes_passed),
		attempts: Number(row.attempts),
		lastActivity: asDate(row.last_activity)
	}));
}

export interface ModuleFunnelRow {
	id: string;
	title: string;
	slug: string;
	hasQuiz: boolean;
	started: number;
	completed: number;
	quizTakers: number;
	quizPassers: number;
	attempts: number;
}

/** Per published module, in the course's order: how many started it, finished it, took and passed its quiz. */
export async function moduleFunnelRows(db: DbOrTx): Promise<ModuleFunnelRow[]> {
	const rows = rowsOf<Record<string, unknown>>(
		await db.execute(sql`
			select mo.id, mo.title, mo.slug, mo.quiz is not null as has_quiz,
				(select count(*) from (
					select user_id from module_progress where module_id = mo.id
					union select user_id from quiz_attempts where module_id = mo.id
					union select user_id from video_positions where module_id = mo.id
				) s) as started,
				(select count(*) from module_progress p where p.module_id = mo.id) as completed,
				(select count(distinct q.user_id) from quiz_attempts q where q.module_id = mo.id) as quiz_takers,
				(select count(distinct q.user_id) from quiz_attempts q where q.module_id = mo.id and q.passed)
					as quiz_passers,
				(select count(*) from quiz_attempts q where q.module_id = mo.id) as attempts
			from modules mo
			where mo.published
			order by mo.position, mo.created_at`)
	);
	return rows.map((row) => ({
		id: String(row.id),
		title: String(row.title),
		slug: String(row.slug),
		hasQuiz: row.has_quiz === true || row.has_quiz === 't',
		started: Number(row.started),
		completed: Number(row.completed),
		quizTakers: Number(row.quiz_takers),
		quizPassers: Number(row.quiz_passers),
		attempts: Number(row.attempts)
	}));
}
