/**
 * What the admin's dashboard shows over a period (issue "Insights", point 3): visits and visitors per day, the top
 * pages and sources, leads per week by source, the candidature funnel and the members. Figures only: the route
 * draws them (SVG on the server) and lists them in tables.
 */
import { rowsOf } from '../db/migrate';
import type { DbOrTx } from '../db';
import { dayOf } from './audience';
import * as queries from './queries';

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
	const days: string[] = [];
	const today = dayOf(now);
	const cursor = new Date(`${today}T12:00:00Z`);
	for (let i = PERIODS[period] - 1; i >= 0; i--) {
		const day = new Date(cursor);
		day.setUTCDate(cursor.getUTCDate() - i);
		days.push(day.toISOString().slice(0, 10));
	}
	return { from: days[0]!, to: today, days };
}

export interface DailyFigure {
	day: string;
	views: number;
	visitors: number;
}

export async function dailyFigures(db: DbOrTx, period: Period, now = new Date()): Promise<DailyFigure[]> {
	const range = rangeOf(period, now);
	const totals = new Map((await queries.totalsPerDay(db, range)).map((t) => [t.day, t]));
	return range.days.map((day) => ({
		day,
		views: totals.get(day)?.views ?? 0,
		visitors: totals.get(day)?.visitors ?? 0
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

export async function dashboardFigures(db: DbOrTx, period: Period, now = new Date()) {
	const range = rangeOf(period, now);
	const [daily, pages, sources, leadRows, candidaturePage, drafts, steps, members] = await Promise.all([
		dailyFigures(db, period, now),
		queries.topPages(db, range),
		queries.topSources(db, range),
		queries.leadsPerWeekBySource(db, range),
		queries.visitsOf(db, range, '/candidature'),
		queries.eventsOf(db, range, 'candidature-draft-started'),
		queries.candidatureSteps(db, range),
		queries.memberFigures(db, range)
	]);
	const weeks = weeksOf(range);
	const leadsByWeek = rowsOf<{ week: string; source: string; n: number }>(leadRows);
	const leadSources = [...new Set(leadsByWeek.map((r) => r.source))].sort(
		(a, b) => total(leadsByWeek, b) - total(leadsByWeek, a)
	);
	const completed = new Map(members.completedPerWeek.map((r) => [r.week, r.n]));
	return {
		period,
		periods: PERIOD_CHOICES,
		range: { from: range.from, to: range.to },
		daily,
		totals: {
			views: daily.reduce((sum, d) => sum + d.views, 0),
			// A visitor of two days is two: visitors are told apart for one day only (audience.ts).
			visitorDays: daily.reduce((sum, d) => sum + d.visitors, 0)
		},
		pages,
		sources,
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

const total = (rows: { source: string; n: number }[], source: string) =>
	rows.filter((r) => r.source === source).reduce((sum, r) => sum + r.n, 0);

export type DashboardFigures = Awaited<ReturnType<typeof dashboardFigures>>;
