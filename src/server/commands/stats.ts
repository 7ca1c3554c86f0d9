/**
 * `npm run stats`: the audience of the last 30 days in the terminal (issue "Insights", point 3) — for showcase mode,
 * which has no admin, and for anyone at the server's shell. The dashboard's own figures (insights/dashboard.ts),
 * printed: per day, pages viewed and visitors; then the most viewed pages and where visitors came from. It reads
 * and writes nothing — a database behind this version's schema is refused, not migrated. On the embedded database
 * it refuses to run beside the server (the database belongs to one process): stop the server, or read the dashboard.
 */
import { loadConfig } from '../../lib/server/config';
import { dashboardFigures } from '../../lib/server/insights';
import {
	EXIT,
	openCommandDatabase,
	requireCurrentSchema,
	requireInstallation,
	requireInstalledDatabase,
	runCommand
} from '../cli/command';

const column = (text: string | number, width: number) => String(text).padStart(width);

runCommand(async () => {
	requireInstallation('stats');
	const config = loadConfig();
	const database = openCommandDatabase(
		config,
		'stats',
		(server) =>
			`Stop the server first (it stops cleanly on SIGTERM), or read the figures on ${new URL('/admin', server).href}.`
	);
	try {
		await requireInstalledDatabase(database, config.dataDir, 'stats');
		await requireCurrentSchema(database);
		const { range, daily, totals, pages, sources } = await dashboardFigures(database.db, '30j');
		if (!config.analytics) console.log('ANALYTICS=off: nothing is counted now; figures from before:');
		console.log(
			`Audience from ${range.from} to ${range.to} (Europe/Paris days; a visitor is told apart for one day)`
		);
		console.log(`${'day'.padEnd(10)} ${column('pages', 7)} ${column('visitors', 9)}`);
		for (const day of daily) console.log(`${day.day} ${column(day.views, 7)} ${column(day.visitors, 9)}`);
		console.log(`${'total'.padEnd(10)} ${column(totals.views, 7)} ${column(totals.visitors, 9)}`);
		console.log('\nMost viewed pages');
		for (const page of pages) console.log(`${column(page.views, 7)}  ${page.path}`);
		if (!pages.length) console.log('      -  (none)');
		console.log('\nWhere visits came from (visits, pages viewed)');
		for (const source of sources)
			console.log(`${column(source.visits, 7)} ${column(source.views, 7)}  ${source.source || '(direct)'}`);
		if (!sources.length) console.log('      -  (none)');
	} finally {
		await database.close();
	}
	return EXIT.done;
});
