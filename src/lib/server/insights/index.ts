/**
 * Insights (issue "Insights"): the audience counted inside the server without cookies (audience.ts), written to the
 * database every few seconds, kept 25 months; and where a lead or a candidature came from. Bound to the
 * application's services (app.ts); tests call audience.ts and queries.ts with their own database.
 */
import { appDeps } from '../app';
import { onShutdown } from '../lifecycle';
import { log } from '../log';
import { audienceTally, dayOf, type AudienceEvent, type AudienceTally, type Origin } from './audience';
import { AudienceLedger, landingOf, writeVisits } from './visits';

export type { Origin };
import * as dashboard from './dashboard';
import * as queries from './queries';
import { csvStream } from '../csv';
import {
	learnerDetail,
	learnersCsv as toLearnersCsv,
	learnersPage,
	learnersReport,
	STUCK_AFTER_DAYS
} from './learners';

/** How often each instance writes its counts: what a crash can lose at most. */
export const WRITE_EVERY_MS = 5_000;
/** CNIL's limit for consent-free audience measurement: 25 months, enforced by the retention job. */
export const RETENTION_MONTHS = 25;

/** This process's salts and bounds between writes (visits.ts). */
const ledger = new AudienceLedger();
/**
 * Writes one at a time: a form's origin waits for the write in progress rather than racing it, and callers that come
 * while a write waits for its turn share that one (a burst of forms adds one write, not one each).
 */
let writing: Promise<void> = Promise.resolve();
let waiting: Promise<void> | null = null;

/**
 * Writes what was counted since the last write, after forgetting the days that have ended; a failed write gives its
 * views back for the next one. Never rejects.
 */
export function writeAudience(): Promise<void> {
	if (waiting) return waiting;
	waiting = writing = writing.then(async () => {
		waiting = null;
		const { db } = appDeps();
		const tally = audienceTally();
		const batch = tally.drain();
		const now = new Date();
		try {
			await ledger.forgetEndedDays(db, dayOf(now));
			await writeVisits(db, batch, ledger, now);
		} catch (error) {
			tally.restore(batch);
			log.warn('audience counts not written; kept for the next try', { error });
		}
	});
	return writing;
}

let writer: NodeJS.Timeout | null = null;

/**
 * At start-up (init hook), when ANALYTICS is not off: the periodic write, and a last one at shutdown. Answers the
 * tally, which the hook hands to the server entry (http/audience-bridge.ts); null when the audience is off.
 */
export function startAudienceWriter(): AudienceTally | null {
	if (!appDeps().config.analytics) return null;
	if (writer) return audienceTally();
	writer = setInterval(() => void writeAudience(), WRITE_EVERY_MS);
	writer.unref();
	onShutdown(async () => {
		if (writer) clearInterval(writer);
		writer = null;
		await writeAudience();
	});
	return audienceTally();
}

/** One more of a journey's step that no table keeps (counted with the audience; nothing when it is off). */
export function countEvent(kind: AudienceEvent): void {
	if (appDeps().config.analytics) audienceTally().countEvent(kind);
}

/**
 * The retention job: counts older than 25 months go; and so do the salts and hashes of days that have ended, which
 * the writer deletes itself — unless ANALYTICS was turned off since (no writer runs then).
 */
export async function purgeOld(now = new Date()): Promise<number> {
	const cutoff = new Date(now);
	cutoff.setMonth(cutoff.getMonth() - RETENTION_MONTHS);
	const { db } = appDeps();
	await queries.forgetDaysBefore(db, dayOf(now));
	return queries.deleteCountsBefore(db, dayOf(cutoff));
}

/**
 * The origin of a form sent now: the page it was sent from (the Referer of the POST, on our own site: its path
 * alone), and — when any instance saw the visitor land today — the other site's host and the campaign. Nothing is
 * read from or written to the browser: the landing is found by the same daily, salted visitor hash the audience uses
 * (visits.ts), deleted with the day. This instance's own views are written first; another instance's are within
 * WRITE_EVERY_MS. Never fails a form: a landing that cannot be read is unknown.
 */
export async function originOf(request: Request, address: string): Promise<Origin> {
	const { config, db } = appDeps();
	let sourcePage: string | null = null;
	try {
		const referer = new URL(request.headers.get('referer') ?? '');
		if (referer.origin === config.origin.origin) sourcePage = referer.pathname.slice(0, 200);
	} catch {
		// No Referer (or not a URL): the page is unknown.
	}
	if (!config.analytics) return { sourcePage };
	let landing: Awaited<ReturnType<typeof landingOf>> = null;
	try {
		await writeAudience();
		landing = await landingOf(db, ledger, address, request.headers.get('user-agent') ?? '', new Date());
	} catch (error) {
		log.warn('landing not read; the form is kept without its campaign', { error });
	}
	if (!landing) return { sourcePage };
	const { referrerHost, utmSource, utmMedium, utmCampaign } = landing;
	return { sourcePage, referrerHost, utmSource, utmMedium, utmCampaign };
}

/** The dashboard's figures over 30 days, 90 days or 12 months. */
export const figures = (period: dashboard.Period, filter: dashboard.AudienceFilter = {}) =>
	dashboard.dashboardFigures(appDeps().db, period, new Date(), filter);

/** The daily figures as a spreadsheet (day, views, visitors). */
export async function dailyCsv(
	period: dashboard.Period,
	filter: dashboard.AudienceFilter = {}
): Promise<ReadableStream<Uint8Array>> {
	// A row per day of the period (366 at most): read before the answer starts (a failure is still an error page),
	// then written as the other exports are.
	const daily = await dashboard.dailyFigures(appDeps().db, period, new Date(), filter);
	return csvStream(['jour', 'pages vues', 'visiteurs'], [daily.map((d) => [d.day, d.views, d.visitors])]);
}

export {
	filterOf,
	periodOf,
	PERIODS,
	type AudienceFilter,
	type Period,
	type DashboardFigures
} from './dashboard';

/** The report's figures and one page of its members (/admin/suivi). */
export async function learnersList(options: Parameters<typeof learnersPage>[1]) {
	const report = await learnersReport(appDeps().db);
	return { ...report, ...learnersPage(report, options) };
}
/** One member's page in /admin/suivi; null when the account has no membership. */
export const learner = (userId: string) => learnerDetail(appDeps().db, userId);
/** `/admin/suivi.csv`. */
export const learnersCsv = () => toLearnersCsv(appDeps().db);
/** The dashboard's « À faire »: members following the course who did nothing for STUCK_AFTER_DAYS days. */
export const countStuckLearners = () => queries.countStuck(appDeps().db, new Date(), STUCK_AFTER_DAYS);
export { STUCK_AFTER_DAYS, type LearnerDetail, type LearnersReport } from './learners';

/** For the domains that record where a lead or a candidature came from, and for the server entry's tally. */
export { audienceTally, originColumns } from './audience';
/** The figures on the command line (`npm run stats`): the dashboard's, on the command's own database. */
export { dashboardFigures } from './dashboard';
