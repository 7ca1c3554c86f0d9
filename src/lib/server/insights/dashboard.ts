/**
 * What the admin's dashboard shows over a period (issues "Insights", point 3, and "Experience, part 3", point 3):
 * visitors, visits and page views per day with the change against the period before, the top pages, entry pages,
 * sources, campaigns and devices, leads per week by source, the candidature funnel and the members — narrowed by a
 * page, a source, a campaign or a device when the URL asks (`filterOf`). Figures only: the route draws them (SVG on
 * the server) and lists them in tables.
 */
import { rowsOf } from '../db/migrate';
import type { DbOrTx } from '../db';
import { FILTER_PARAMS, type AudienceFilter } from '../../dashboard-filter';
import { canonicalPath, dayOf, type Device } from './audience';
import * as queries from './queries';
import { sourceName } from './source-names';

export type { AudienceFilter };

const DEVICES: readonly Device[] = ['mobile', 'tablet', 'desktop'];
/** The longest a source or campaign is kept (audience.ts cleans every field to 100 characters). */
const FIELD_MAX = 100;

/**
 * The filter a URL asks for. A value that no row could hold (not a page path, longer than what is kept, an unknown
 * device) is dropped, as an unknown period is: a shared link never breaks the page.
 */
export function filterOf(search: URLSearchParams): AudienceFilter {
	const filter: AudienceFilter = {};
	const page = search.get(FILTER_PARAMS.page);
	if (page !== null && canonicalPath(page) === page) filter.page = page;
	const source = search.get(FILTER_PARAMS.source);
	// A source by its name (« Facebook »), or as it came when the table has no name for it (kept lower-cased).
	if (source !== null && source.length <= FIELD_MAX) filter.source = sourceName(source.toLowerCase(), '');
	const campaign = search.get(FILTER_PARAMS.campaign);
	if (campaign && campaign.length <= FIELD_MAX) filter.campaign = campaign.toLowerCase();
	const device = search.get(FILTER_PARAMS.device);
	if (device !== null && (DEVICES as readonly string[]).includes(device)) filter.device = device as Device;
	return filter;
}

export const PERIODS = { '30j': 30, '90j': 90, '12m': 365 } as const;
export type Period = keyof typeof PERIODS;
/** The periods the dashboard offers, in its links' words (`?periode=` and the label), shortest first. */
export const PERIOD_CHOICES: readonly { key: Period; label: string }[] = [
	{ key: '30j', label: '30 jours' },
	{ key: '90j', label: '90 jours' },
	{ key: '12m', label: '12 mois' }
];
export const isPeriod = (value: string | null): value is Period =>
	value !== null && Object.hasOwn(PERIODS, value);
/** The period a page asks for (`?periode=`); 30 days when it asks none, or one that is not. */
export const periodOf = (search: URLSearchParams): Period => {
	const asked = search.get('periode');
	return isPeriod(asked) ? asked : '30j';
};

/** The period's days, the last one today (in France). */
export function rangeOf(period: Period, now = new Date()): queries.DayRange & { days: string[] } {
	return daysEndingOn(dayOf(now), PERIODS[period]);
}

/** The same number of days just before the period: what its figures are compared with. */
export function previousRangeOf(period: Period, now = new Date()): queries.DayRange {
	const first = new Date(`${rangeOf(period, now).from}T12:00:00Z`);
	first.setUTCDate(first.getUTCDate() - 1);
	const { from, to } = daysEndingOn(first.toISOString().slice(0, 10), PERIODS[period]);
	return { from, to };
}

function daysEndingOn(last: string, count: number): queries.DayRange & { days: string[] } {
	const days: string[] = [];
	const cursor = new Date(`${last}T12:00:00Z`);
	for (let i = count - 1; i >= 0; i--) {
		const day = new Date(cursor);
		day.setUTCDate(cursor.getUTCDate() - i);
		days.push(day.toISOString().slice(0, 10));
	}
	return { from: days[0]!, to: last, days };
}

export interface DailyFigure {
	day: string;
	views: number;
	visitors: number;
}

export async function dailyFigures(
	db: DbOrTx,
	period: Period,
	now = new Date(),
	filter: AudienceFilter = {}
): Promise<DailyFigure[]> {
	const range = rangeOf(period, now);
	return everyDay(range.days, await queries.totalsPerDay(db, range, filter));
}

/** A range's totals from its days: page views, visitors (a visitor of two days is two) and visits. */
function sumOf(days: queries.DayTotals[]) {
	const totals = { views: 0, visitors: 0, visits: 0 };
	for (const day of days) {
		totals.views += day.views;
		totals.visitors += day.visitors;
		totals.visits += day.visits;
	}
	return totals;
}

/** Each day of the range with its figures, 0 on days without a visit. */
function everyDay(days: string[], rows: queries.DayTotals[]): DailyFigure[] {
	const byDay = new Map(rows.map((row) => [row.day, row]));
	return days.map((day) => ({
		day,
		views: byDay.get(day)?.views ?? 0,
		visitors: byDay.get(day)?.visitors ?? 0
	}));
}

/** Every Monday from the range's first week to its last, YYYY-MM-DD. */
function weeksOf(range: queries.DayRange): string[] {
	const monday = new Date(`${range.from}T12:00:00Z`);
	monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
	const weeks: string[] = [];
	for (const day = monday; day.toISOString().slice(0, 10) <= range.to; day.setUTCDate(day.getUTCDate() + 7))
		weeks.push(day.toISOString().slice(0, 10));
	return weeks;
}

export async function dashboardFigures(
	db: DbOrTx,
	period: Period,
	now = new Date(),
	filter: AudienceFilter = {}
) {
	const range = rangeOf(period, now);
	const previousRange = previousRangeOf(period, now);
	const [audience, previous, leadRows, previousLeads, candidaturePage, drafts, steps, members] =
		await Promise.all([
			audienceFigures(db, range, filter),
			queries.totalsPerDay(db, previousRange, filter),
			queries.leadsPerWeekBySource(db, range, filter),
			queries.leadCount(db, previousRange, filter),
			queries.visitsOf(db, range, '/candidature'),
			queries.eventsOf(db, range, 'candidature-draft-started'),
			queries.candidatureSteps(db, range),
			queries.memberFigures(db, range)
		]);
	const daily = everyDay(range.days, audience.daily);
	const { pages, entries, sources, campaigns, devices } = audience;
	const totals = sumOf(audience.daily);
	const weeks = weeksOf(range);
	const leadsByWeek = rowsOf<{ week: string; source: string; n: number }>(leadRows);
	const leadSources = [...new Set(leadsByWeek.map((r) => r.source))].sort(
		(a, b) => total(leadsByWeek, b) - total(leadsByWeek, a)
	);
	const completed = new Map(members.completedPerWeek.map((r) => [r.week, r.n]));
	return {
		period,
		periods: PERIOD_CHOICES,
		filter,
		range: { from: range.from, to: range.to },
		previousRange,
		daily,
		// A visitor of two days is two: visitors are told apart for one day only (audience.ts).
		totals: { ...totals, leads: leadsByWeek.reduce((sum, r) => sum + r.n, 0) },
		previous: { ...sumOf(previous), leads: previousLeads },
		pages,
		entries,
		sources,
		campaigns,
		devices,
		leads: {
			sources: leadSources,
			weeks: weeks.map((week) => ({
				week,
				bySource: Object.fromEntries(
					leadSources.map((s) => [s, leadsByWeek.find((r) => r.week === week && r.source === s)?.n ?? 0])
				),
				total: leadsByWeek.filter((r) => r.week === week).reduce((sum, r) => sum + r.n, 0)
			}))
		},
		funnel: [
			{ step: 'Visites de la page candidature', count: candidaturePage.views },
			{ step: 'Candidatures commencées', count: drafts },
			{ step: 'Candidatures envoyées', count: steps.submitted },
			{ step: 'Candidatures acceptées', count: steps.approved },
			{ step: 'Adhésions payées', count: steps.paid }
		],
		members: {
			active: members.active,
			started: members.started,
			ended: members.ended,
			completedPerWeek: weeks.map((week) => ({ week, count: completed.get(week) ?? 0 }))
		}
	};
}

/** The audience's tables: from the rollups, or, narrowed by a filter, from one scan of the rows it keeps. */
async function audienceFigures(
	db: DbOrTx,
	range: queries.DayRange,
	filter: AudienceFilter
): Promise<queries.FilteredFigures> {
	if (queries.isPageOnly(filter)) {
		// A page's visitors are people (the page rollup's), not its rows' sum: never more than the site's.
		const [figures, daily] = await Promise.all([
			queries.filteredFigures(db, range, filter),
			queries.totalsPerDay(db, range, filter)
		]);
		const visitors = daily.reduce((sum, day) => sum + day.visitors, 0);
		return { ...figures, daily, pages: figures.pages.map((page) => ({ ...page, visitors })) };
	}
	if (queries.isFiltered(filter)) return queries.filteredFigures(db, range, filter);
	const [daily, { pages, entries }, sources, campaigns, devices] = await Promise.all([
		queries.totalsPerDay(db, range),
		queries.pagesAndEntries(db, range),
		queries.topSources(db, range),
		queries.topCampaigns(db, range),
		queries.devices(db, range)
	]);
	return { daily, pages, entries, sources, campaigns, devices };
}

const total = (rows: { source: string; n: number }[], source: string) =>
	rows.filter((r) => r.source === source).reduce((sum, r) => sum + r.n, 0);

export type DashboardFigures = Awaited<ReturnType<typeof dashboardFigures>>;
