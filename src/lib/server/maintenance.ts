/** Housekeeping that runs on every instance: each task is idempotent, so instances need not coordinate. */
import * as audit from './audit';
import * as auth from './auth';
import * as candidatures from './candidatures';
import * as content from './content';
import * as courses from './courses';
import { config } from './config';
import { database, db } from './db';
import { tidyEmbedded } from './db/upkeep';
import { purgeExpiredCounters } from './abuse';
import * as insights from './insights';
import * as leads from './leads';
import * as training from './training';
import { onShutdown } from './lifecycle';
import { log } from './log';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Leads past LEADS_RETENTION_DAYS are deleted (RGPD: kept no longer than needed), the audit trail's rows past
 * three years (the only deletion its append-only trigger lets through), and the audience's counts past 25 months
 * (CNIL's limit for audience measurement without consent).
 */
export async function runRetention(): Promise<void> {
	const deleted = await leads.purgeOld();
	log.info('leads retention', { deleted, retentionDays: leads.retentionDays() });
	const auditDeleted = await audit.purgeOld();
	if (auditDeleted) log.info('audit retention', { deleted: auditDeleted, retentionYears: 3 });
	const audienceDeleted = await insights.purgeOld();
	if (audienceDeleted)
		log.info('audience retention', { deleted: audienceDeleted, retentionMonths: insights.RETENTION_MONTHS });
	// After the day's deletions: the embedded database has no autovacuum to reclaim them and refresh its statistics.
	const started = performance.now();
	const tidied = await tidyEmbedded(database);
	if (tidied)
		log.info('embedded database tidied', { tables: tidied, ms: Math.round(performance.now() - started) });
	// Once a day on one instance (the one that takes the day's turn): members idle for a week are reminded.
	if (config.siteMode === 'platform') {
		const reminded = await courses.sendReminders();
		if (reminded) log.info('course reminders sent', { members: reminded });
	}
}

export async function runMaintenance(): Promise<void> {
	// Showcase mode has no accounts and no candidatures: its only counters are the quote form's rate limits.
	const platform = config.siteMode === 'platform';
	const sessions = platform ? await auth.purgeExpiredSessions() : 0;
	const counters = await purgeExpiredCounters(db);
	const drafts = platform ? await candidatures.purgeOldDrafts() : 0;
	// Course uploads untouched for a day, and files uploaded but never saved into a module.
	const abandoned = platform ? await courses.purgeAbandonedFiles() : { uploads: 0, files: 0 };
	// The cold survey and its reminder, due since the last run: each claimed before it goes (one per member).
	const surveys = platform ? await training.sendColdSurveys() : { sent: 0, reminded: 0 };
	if (surveys.sent || surveys.reminded) log.info('cold surveys sent', surveys);
	if (sessions || counters || drafts || abandoned.uploads || abandoned.files)
		log.info('maintenance', {
			expiredSessions: sessions,
			expiredRateLimits: counters,
			expiredCandidatureDrafts: drafts,
			abandonedCourseUploads: abandoned.uploads,
			unusedCourseFiles: abandoned.files
		});
}

/** Scheduled publishes are looked for this often: each goes live within a minute of its time. */
const SCHEDULE_CHECK_MS = 30_000;

export function startMaintenance(): void {
	const publishDue = () =>
		content.publishDue().then(
			({ published }) => published.length && log.info('scheduled publishes', { entries: published }),
			(error) => log.error('scheduled publishes failed', { error })
		);
	const publishing =
		config.siteMode === 'platform' ? setInterval(() => void publishDue(), SCHEDULE_CHECK_MS) : null;
	publishing?.unref();
	const run = () => runMaintenance().catch((error) => log.error('maintenance failed', { error }));
	void run();
	const timer = setInterval(run, HOUR_MS);
	timer.unref();
	const retention = () => runRetention().catch((error) => log.error('leads retention failed', { error }));
	void retention();
	const daily = setInterval(retention, DAY_MS);
	daily.unref();
	onShutdown(() => {
		if (publishing) clearInterval(publishing);
		clearInterval(timer);
		clearInterval(daily);
	});
}
