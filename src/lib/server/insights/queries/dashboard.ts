/**
 * The dashboard's figures (dashboard.ts): each one query over a range of days.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { rowsOf } from '../../db/migrate';
import {
	audienceCampaigns,
	audienceDaily,
	audienceDevices,
	audienceEvents,
	audiencePages,
	audienceSources,
	audienceVisitors,
	candidatures,
	leadsDaily,
	memberships,
	moduleProgress
} from '../../db/schema';
import type { AudienceFilter } from '../../../dashboard-filter';
import { type Device } from '../audience';
import { SOURCE } from './source';

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
 * Whether the filter is a page alone: then its figures are the page rollup's, whose visitors are people, counted once
 * a day on the page whatever their visits' sources (totalsPerDay).
 */
export const isPageOnly = (filter: AudienceFilter) =>
	filter.page !== undefined &&
	filter.source === undefined &&
	filter.campaign === undefined &&
	filter.device === undefined;

/**
 * Visitors as the filter allows them to be told: on a page with another filter, its rows' visitors (a visitor is
 * counted once per row, and a visitor's rows on one page differ only by a second visit's source); by a source, a
 * campaign or a device, a visitor is counted at each visit (the rows of one visitor on several pages cannot be added
 * up).
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
	if (isPageOnly(filter))
		return db
			.select({
				day: audiencePages.day,
				views: audiencePages.views,
				visitors: audiencePages.visitors,
				visits: audiencePages.entries
			})
			.from(audiencePages)
			.where(sql`${inRange(audiencePages.day, range)} and ${audiencePages.path} = ${filter.page}`);
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
 * as leads keep it: the page they were sent from, their source and campaign (a lead keeps no device). Read from
 * `leads_daily` (a row per day and raw source, page and campaign, kept by the database as leads come and go), and
 * grouped by the raw source first: the source's name (two dozen patterns) is worked out once per week and raw
 * source — twelve months are a few hundred rows, where reading the leads themselves read 60,000.
 */
export function leadsPerWeekBySource(db: DbOrTx, range: DayRange, filter: AudienceFilter = {}) {
	const named = sql`atelier_source_name(raw, '')`;
	return db.execute<{ week: string; source: string; n: number }>(sql`
		select week, ${named} as source, sum(n)::int as n
		from (
			select to_char(date_trunc('week', ${leadsDaily.day}), 'YYYY-MM-DD') as week,
				${leadsDaily.rawSource} as raw, sum(${leadsDaily.leads}) as n
			from ${leadsDaily}
			where ${genuineLeadsIn(range, filter)}
			group by 1, 2
		) as weekly
		${filter.source !== undefined ? sql`where ${named} = ${filter.source}` : sql``}
		group by 1, 2 order by 1, 2`);
}

/** The days of genuine leads in the range, from the page and campaign the filter names (their source: the callers). */
function genuineLeadsIn(range: DayRange, filter: AudienceFilter): SQL {
	const conditions = [inRange(leadsDaily.day, range)];
	if (filter.page !== undefined) conditions.push(sql`${leadsDaily.sourcePage} = ${filter.page}`);
	if (filter.campaign !== undefined) conditions.push(sql`${leadsDaily.campaign} = ${filter.campaign}`);
	return sql.join(conditions, sql` and `);
}

/** Leads (not spam) received in the range, filtered as leadsPerWeekBySource filters them. */
export async function leadCount(db: DbOrTx, range: DayRange, filter: AudienceFilter = {}): Promise<number> {
	const [row] = rowsOf<{ n: number }>(
		await db.execute(sql`
			select coalesce(sum(n), 0)::int as n from (
				select ${leadsDaily.rawSource} as raw, sum(${leadsDaily.leads}) as n from ${leadsDaily}
				where ${genuineLeadsIn(range, filter)} group by 1
			) as genuine
			${filter.source !== undefined ? sql`where atelier_source_name(raw, '') = ${filter.source}` : sql``}`)
	);
	return Number(row?.n ?? 0);
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
