/**
 * `npm run stats`: the audience of the last 30 days in the terminal (issue "Insights", point 3) — for showcase mode,
 * which has no admin, and for anyone at the server's shell. Per day, pages viewed and visitors; then the most
 * viewed pages and where visitors came from. On the embedded database it refuses to run beside the server (the
 * database belongs to one process): stop the server, or read the dashboard.
 */
import { loadConfig } from '../../lib/server/config';
import { dailyFigures, rangeOf } from '../../lib/server/insights/dashboard';
import { topPages, topSources } from '../../lib/server/insights/queries';
import { EXIT, openCommandDatabase, runCommand } from './command';

const column = (text: string | number, width: number) => String(text).padStart(width);

runCommand(async () => {
	const config = loadConfig();
	const database = openCommandDatabase(
		config,
		'stats',
		'Stop the server first (it stops cleanly on SIGTERM), or read the figures on /admin.'
	);
	try {
		await database.migrate();
		const range = rangeOf('30j');
		const [daily, pages, sources] = await Promise.all([
			dailyFigures(database.db, '30j'),
			topPages(database.db, range),
			topSources(database.db, range)
		]);
		if (!config.analytics) console.log('ANALYTICS=off: nothing is counted now; figures from before:');
		console.log(
			`Audience from ${range.from} to ${range.to} (Europe/Paris days; a visitor is told apart for one day)`
		);
		console.log(`${'day'.padEnd(10)} ${column('pages', 7)} ${column('visitors', 9)}`);
		for (const day of daily) console.log(`${day.day} ${column(day.views, 7)} ${column(day.visitors, 9)}`);
		const views = daily.reduce((sum, d) => sum + d.views, 0);
		const visitors = daily.reduce((sum, d) => sum + d.visitors, 0);
		console.log(`${'total'.padEnd(10)} ${column(views, 7)} ${column(visitors, 9)}`);
		console.log('\nMost viewed pages');
		for (const page of pages) console.log(`${column(page.views, 7)}  ${page.path}`);
		if (!pages.length) console.log('      -  (none)');
		console.log('\nWhere visitors came from (pages viewed)');
		for (const source of sources) console.log(`${column(source.views, 7)}  ${source.source || '(direct)'}`);
		if (!sources.length) console.log('      -  (none)');
	} finally {
		await database.close();
	}
	return EXIT.done;
});
