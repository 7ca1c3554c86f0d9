/**
 * Fills a DATA_DIR for `npm run bench insights`: two years of daily audience rows for 200 pages and 100 source sites
 * (each page seen every day from five of them, on two device classes), through the application's own database
 * module (bundled by bench/insights.mjs). Usage: node seed.js <DATA_DIR>.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/lib/server/db';
import { rowsOf } from '../src/lib/server/db/migrate';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: seed.js <DATA_DIR>');

const database = openDatabase({ url: null, pgliteDir: path.join(dataDir, 'db'), purpose: 'bench' });
await database.migrate();
await database.db.execute(sql`
	insert into audience_daily
		(day, path, referrer_host, utm_source, utm_medium, utm_campaign, device, views, visitors, entries)
	select current_date - d, '/page-' || p,
		case when s = 0 then '' else 'site-' || ((p * 7 + s * 13 + d) % 100) || '.fr' end,
		case when s = 4 then 'newsletter' else '' end, case when s = 4 then 'email' else '' end,
		case when s = 4 then 'printemps' else '' end,
		case when (p + d) % 3 = 0 then 'desktop' else 'mobile' end,
		1 + (p * s + d) % 20, 1 + (p + s + d) % 10, (p + s + d) % 4
	from generate_series(0, 729) as d, generate_series(1, 200) as p, generate_series(0, 4) as s
	on conflict do nothing`);
// What the server's writes keep beside the rows (insights/queries.ts, addCounts): the day's totals, pages, sources,
// campaigns, devices.
await database.db.execute(sql`
	insert into audience_visitors (day, visitors, views, visits)
	select day, 400 + (extract(doy from day)::int * 37) % 300, sum(views), sum(entries)
	from audience_daily group by day`);
await database.db.execute(sql`
	insert into audience_pages (day, path, views, visitors, entries)
	select day, path, sum(views), sum(visitors), sum(entries) from audience_daily group by day, path`);
await database.db.execute(sql`
	insert into audience_sources (day, source, views, visits)
	select day, case when referrer_host <> '' then referrer_host else utm_source end, sum(views), sum(entries)
	from audience_daily group by 1, 2`);
await database.db.execute(sql`
	insert into audience_campaigns (day, campaign, medium, views, visits)
	select day, utm_campaign, utm_medium, sum(views), sum(entries) from audience_daily
	where utm_campaign <> '' group by 1, 2, 3`);
await database.db.execute(sql`
	insert into audience_devices (day, device, views, visits)
	select day, device, sum(views), sum(entries) from audience_daily group by 1, 2`);
const [counted] = rowsOf<{ rows: number }>(
	await database.db.execute(sql`select count(*)::int as rows from audience_daily`)
);
console.log(JSON.stringify(counted));
await database.close();
