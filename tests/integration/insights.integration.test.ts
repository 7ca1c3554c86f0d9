/**
 * The audience's counts in the database (issue "Insights", points 1 and 4; « Many instances, one site », point 1): a
 * batch is one transaction whatever its size; instances add up, on PostgreSQL each through its own connections,
 * written at the same moment, and tell one visitor as one whatever instance saw them (the day's salt, their landing
 * and rows are shared); the salt and the hashes go when the day ends and never into a backup; the retention keeps
 * 25 months.
 */
import { asc, sql } from 'drizzle-orm';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
	audienceCampaigns,
	audienceDaily,
	audienceDevices,
	audienceLandings,
	audiencePages,
	audienceSalts,
	audienceSources,
	audienceVisitorRows,
	audienceVisitors
} from '../../src/lib/server/db/schema';
import { AudienceTally, type CountableRequest } from '../../src/lib/server/insights/audience';
import { deleteCountsBefore } from '../../src/lib/server/insights/queries';
import { AudienceLedger, landingOf, pageHash, writeVisits } from '../../src/lib/server/insights/visits';
import { snapshotTables } from '../../src/lib/server/backup/tables';
import { dashboardFigures, filterOf } from '../../src/lib/server/insights/dashboard';
import { sourceName } from '../../src/lib/server/insights/source-names';
import { rowsOf } from '../../src/lib/server/db/migrate';
import { leads } from '../../src/lib/server/db/schema';
import { createTestDatabase, driverName, serverUrl, type TestDatabase } from '../helpers/database';

const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36';

const visit = (address: string, url = '/macon', referer?: string): CountableRequest => ({
	method: 'GET',
	url,
	status: 200,
	contentType: 'text/html',
	address,
	headers: { 'user-agent': PHONE, ...(referer ? { referer } : {}) }
});

let database: TestDatabase;
beforeAll(async () => {
	database = await createTestDatabase();
});
afterAll(() => database.dispose());
beforeEach(async () => {
	await database.db.delete(audienceDaily);
	await database.db.delete(audienceVisitors);
	await database.db.delete(audiencePages);
	await database.db.delete(audienceSources);
	await database.db.delete(audienceDevices);
	await database.db.delete(audienceCampaigns);
	await database.db.delete(audienceVisitorRows);
	await database.db.delete(audienceLandings);
	await database.db.delete(audienceSalts);
});

const today = () => new Date('2026-11-26T10:00:00Z');
/** One instance's write of what it counted, as its writer does every few seconds. */
const write = (tally: AudienceTally, ledger = new AudienceLedger(), now = today(), db = database.db) =>
	writeVisits(db, tally.drain(), ledger, now);

describe(`the audience's counts on ${driverName}`, () => {
	it('writes a batch of thousands of rows in one transaction, and adds the next batch to it', async () => {
		const tally = new AudienceTally(today);
		for (let i = 0; i < 3000; i++)
			tally.count(visit(`10.1.${i >> 8}.${i & 255}`, `/page-${i}`), 'atelier.fr');
		const ledger = new AudienceLedger();
		await write(tally, ledger);
		for (let i = 0; i < 3000; i++)
			tally.count(visit(`10.1.${i >> 8}.${i & 255}`, `/page-${i}`), 'atelier.fr');
		await write(tally, ledger);
		const [total] = await database.db
			.select({ rows: sql<number>`count(*)::int`, views: sql<number>`sum(views)::int` })
			.from(audienceDaily);
		expect(total).toEqual({ rows: 3000, views: 6000 });
		// The same visitors the second time: seen already today, not new ones.
		expect(await database.db.select().from(audienceVisitors)).toEqual([
			{ day: '2026-11-26', visitors: 3000, views: 6000, visits: 3000 }
		]);
		// The rollups the dashboard reads add up to the rows.
		const [pages] = await database.db
			.select({ rows: sql<number>`count(*)::int`, views: sql<number>`sum(views)::int` })
			.from(audiencePages);
		expect(pages).toEqual({ rows: 3000, views: 6000 });
		expect(await database.db.select().from(audienceSources)).toEqual([
			{ day: '2026-11-26', source: '', views: 6000, visits: 3000 }
		]);
		expect(await database.db.select().from(audienceDevices)).toEqual([
			{ day: '2026-11-26', device: 'mobile', views: 6000, visits: 3000 }
		]);
	});

	it('keeps the source’s host and campaign, never the full referrer', async () => {
		const tally = new AudienceTally(today);
		tally.count(
			visit('10.2.0.1', '/macon?utm_campaign=printemps', 'https://www.google.fr/search?q=macon'),
			'atelier.fr'
		);
		await write(tally);
		const rows = await database.db.select().from(audienceDaily);
		expect(rows).toEqual([
			{
				day: '2026-11-26',
				path: '/macon',
				referrerHost: 'google.fr',
				utmSource: '',
				utmMedium: '',
				utmCampaign: 'printemps',
				device: 'mobile',
				views: 1,
				visitors: 1,
				entries: 1
			}
		]);
	});

	it('keeps 25 months: older days go, the rest stays', async () => {
		for (const day of ['2024-09-30', '2024-10-01', '2026-11-26']) {
			const tally = new AudienceTally(() => new Date(`${day}T10:00:00Z`));
			tally.count(visit('10.3.0.1'), 'atelier.fr');
			await write(tally, new AudienceLedger(), new Date(`${day}T10:00:00Z`));
		}
		expect(await deleteCountsBefore(database.db, '2024-10-01')).toBe(1);
		const days = await database.db
			.select({ day: audienceDaily.day })
			.from(audienceDaily)
			.orderBy(asc(audienceDaily.day));
		expect(days.map((d) => d.day)).toEqual(['2024-10-01', '2026-11-26']);
		expect((await database.db.select().from(audienceVisitors)).map((d) => d.day).sort()).toEqual([
			'2024-10-01',
			'2026-11-26'
		]);
	});

	it('gives the dashboard its figures: days filled, top pages and sources, leads per week by source, the funnel', async () => {
		const tally = new AudienceTally(today);
		tally.count(visit('10.5.0.1', '/macon?utm_campaign=printemps', 'https://www.google.fr/'), 'atelier.fr');
		tally.count(visit('10.5.0.1', '/candidature'), 'atelier.fr');
		tally.count(visit('10.5.0.2', '/candidature'), 'atelier.fr');
		tally.count(visit('10.5.0.3', '/'), 'atelier.fr');
		tally.countEvent('candidature-draft-started');
		await write(tally);
		await database.db.delete(leads);
		await database.db.insert(leads).values([
			{
				kind: 'devis',
				name: 'A',
				email: 'a@exemple.fr',
				message: 'm',
				referrerHost: 'google.fr',
				createdAt: today()
			},
			{ kind: 'devis', name: 'B', email: 'b@exemple.fr', message: 'm', createdAt: today() },
			{ kind: 'devis', name: 'C', email: 'c@exemple.fr', message: 'm', spam: true, createdAt: today() }
		]);
		const figures = await dashboardFigures(database.db, '30j', today());
		expect(figures.daily).toHaveLength(30);
		expect(figures.daily.at(-1)).toEqual({ day: '2026-11-26', views: 4, visitors: 3 });
		expect(figures.daily[0]).toEqual({ day: '2026-10-28', views: 0, visitors: 0 });
		expect(figures.pages[0]).toEqual({ path: '/candidature', views: 2, visitors: 2 });
		// /candidature, seen after landing from google, is a page of that visit.
		expect(figures.sources).toEqual([
			{ source: '', visits: 2, views: 2 },
			{ source: 'Google', visits: 1, views: 2 }
		]);
		expect(figures.totals).toEqual({ views: 4, visitors: 3, visits: 3, leads: 2 });
		expect(figures.previous).toEqual({ views: 0, visitors: 0, visits: 0, leads: 0 });
		expect(figures.entries).toEqual([
			{ path: '/', visits: 1 },
			{ path: '/candidature', visits: 1 },
			{ path: '/macon', visits: 1 }
		]);
		expect(figures.campaigns).toEqual([{ campaign: 'printemps', medium: null, visits: 1, views: 2 }]);
		expect(figures.devices).toEqual([{ device: 'mobile', visits: 3, views: 4 }]);

		// Narrowed to a source: every figure is that source's visits, and the leads that came from it.
		const fromGoogle = await dashboardFigures(database.db, '30j', today(), { source: 'Google' });
		expect(fromGoogle.totals).toEqual({ views: 2, visitors: 1, visits: 1, leads: 1 });
		expect(fromGoogle.pages.map((p) => p.path).sort()).toEqual(['/candidature', '/macon']);
		expect(fromGoogle.entries).toEqual([{ path: '/macon', visits: 1 }]);
		expect(fromGoogle.daily.at(-1)).toEqual({ day: '2026-11-26', views: 2, visitors: 1 });
		// Narrowed to a page: its own visitors; direct access ('') is a source like the others.
		const candidature = await dashboardFigures(database.db, '30j', today(), { page: '/candidature' });
		expect(candidature.totals).toMatchObject({ views: 2, visitors: 2, visits: 1 });
		expect(candidature.sources).toEqual([
			{ source: '', visits: 1, views: 1 },
			{ source: 'Google', visits: 0, views: 1 }
		]);
		const direct = await dashboardFigures(database.db, '30j', today(), { source: '', device: 'desktop' });
		expect(direct.totals).toMatchObject({ views: 0, visitors: 0, visits: 0 });

		// The same figures a period later: what was counted is now the period before.
		const later = new Date('2026-12-30T10:00:00Z');
		const next = await dashboardFigures(database.db, '30j', later);
		expect(next.previous).toEqual({ views: 4, visitors: 3, visits: 3, leads: 2 });
		expect(next.totals).toEqual({ views: 0, visitors: 0, visits: 0, leads: 0 });
		const week = figures.leads.weeks.find((w) => w.week === '2026-11-23');
		expect(week).toEqual({ week: '2026-11-23', bySource: { '': 1, Google: 1 }, total: 2 });
		expect(figures.funnel.map((s) => s.count)).toEqual([2, 1, 0, 0, 0]);
		expect(figures.members).toMatchObject({ active: 0, started: 0, ended: 0 });
	});

	it('names a source as people do — utm_source first, one name per site — and counts a page’s visitors as people', async () => {
		const tally = new AudienceTally(today);
		// Four people on the home page: from Facebook's link shim, from a link tagged for Facebook, from a letter whose
		// mail site sent a Referer too, and from Facebook's mobile site who comes back later from PagesJaunes.
		tally.count(visit('10.9.0.1', '/', 'https://l.facebook.com/'), 'atelier.fr');
		tally.count(visit('10.9.0.2', '/?utm_source=facebook'), 'atelier.fr');
		tally.count(
			visit('10.9.0.3', '/?utm_source=lettre&utm_campaign=hiver', 'https://mail.example/'),
			'atelier.fr'
		);
		tally.count(visit('10.9.0.4', '/', 'https://m.facebook.com/'), 'atelier.fr');
		tally.count(visit('10.9.0.4', '/', 'https://www.pagesjaunes.fr/pros/atelier'), 'atelier.fr');
		tally.count(visit('10.9.0.4', '/?utm_source=pagesjaunes'), 'atelier.fr');
		await write(tally);
		const figures = await dashboardFigures(database.db, '30j', today());
		expect(figures.sources).toEqual([
			{ source: 'Facebook', visits: 3, views: 3 },
			{ source: 'PagesJaunes', visits: 2, views: 2 },
			{ source: 'lettre', visits: 1, views: 1 }
		]);
		// A page's visitors are people: never more than the site's.
		expect(figures.totals).toMatchObject({ visitors: 4, visits: 6, views: 6 });
		expect(figures.pages).toEqual([{ path: '/', views: 6, visitors: 4 }]);
		// Narrowed to the page: still its 4 people, not one per source they came from.
		const home = await dashboardFigures(database.db, '30j', today(), { page: '/' });
		expect(home.totals).toMatchObject({ visitors: 4, visits: 6, views: 6 });
		expect(home.daily.at(-1)).toEqual({ day: '2026-11-26', views: 6, visitors: 4 });
		expect(home.pages).toEqual([{ path: '/', views: 6, visitors: 4 }]);
		expect(home.sources.map((s) => s.source)).toEqual(['Facebook', 'PagesJaunes', 'lettre']);
		// Narrowed to a name, from a link a person may type too.
		const facebook = await dashboardFigures(
			database.db,
			'30j',
			today(),
			filterOf(new URLSearchParams('source=facebook'))
		);
		expect(facebook.filter).toEqual({ source: 'Facebook' });
		expect(facebook.totals).toMatchObject({ visits: 3, views: 3 });
		// The database's function is the table's rule, value for value.
		const pairs: [string, string][] = [
			['', 'l.facebook.com'],
			['fb', 'google.fr'],
			['', 'www.google.co.uk'],
			['', 'maps.google.com'],
			['', 'mail.google.com'],
			['Lettre', 'mail.example'],
			['', 'notgoogle.com'],
			['', 'x.com'],
			['', 'pagesjaunes.fr'],
			['', ''],
			["l'été", '']
		];
		for (const [utm, host] of pairs) {
			const [row] = rowsOf<{ name: string }>(
				await database.db.execute(sql`select atelier_source_name(${utm}, ${host}) as name`)
			);
			expect(row!.name, `${utm} / ${host}`).toBe(sourceName(utm, host));
		}
		expect(pairs.map(([utm, host]) => sourceName(utm, host))).toEqual([
			'Facebook',
			'Facebook',
			'Google',
			'Google Maps',
			'Gmail',
			'Lettre',
			'notgoogle.com',
			'X (Twitter)',
			'PagesJaunes',
			'',
			"l'été"
		]);
	});

	it('finds where a visitor landed whatever instance saw it, and forgets everyone once the day has ended', async () => {
		const seenBy = { tally: new AudienceTally(today), ledger: new AudienceLedger() };
		seenBy.tally.count(
			visit('10.6.0.1', '/macon?utm_source=lettre&utm_campaign=hiver', 'https://mail.example/'),
			'atelier.fr'
		);
		await write(seenBy.tally, seenBy.ledger);
		// Another instance (its own ledger: no salt in memory) finds the landing through the day's salt.
		const other = new AudienceLedger();
		expect(await landingOf(database.db, other, '10.6.0.1', PHONE, today())).toEqual({
			path: '/macon',
			referrerHost: 'mail.example',
			utmSource: 'lettre',
			utmMedium: '',
			utmCampaign: 'hiver'
		});
		expect(await landingOf(database.db, other, '10.6.0.2', PHONE, today())).toBeNull();
		// The other instance sees the visitor's next page: their visit goes on, no new visitor.
		const tally = new AudienceTally(today);
		tally.count(visit('10.6.0.1', '/devis', 'https://atelier.fr/macon'), 'atelier.fr');
		await write(tally, other);
		expect(await database.db.select().from(audienceVisitors)).toEqual([
			{ day: '2026-11-26', visitors: 1, views: 2, visits: 1 }
		]);
		const devis = (await database.db.select().from(audienceDaily)).find((row) => row.path === '/devis');
		expect(devis).toMatchObject({ utmCampaign: 'hiver', visitors: 1, entries: 0 });
		// The next day, the first write forgets the day that ended: its salt, hashes and landings.
		const tomorrow = new Date('2026-11-27T10:00:00Z');
		await other.forgetEndedDays(database.db, '2026-11-27');
		for (const table of [audienceSalts, audienceLandings, audienceVisitorRows])
			expect(await database.db.select().from(table)).toEqual([]);
		expect(await landingOf(database.db, other, '10.6.0.1', PHONE, tomorrow)).toBeNull();
		// A view of the day that ended, written late, is counted without its visitor: its salt is not made again.
		const late = new AudienceTally(today);
		late.count(visit('10.6.0.1', '/macon'), 'atelier.fr');
		await write(late, other, tomorrow);
		expect(await database.db.select().from(audienceSalts)).toEqual([]);
		const [day] = await database.db.select().from(audienceVisitors);
		expect(day).toEqual({ day: '2026-11-26', visitors: 1, views: 3, visits: 1 });
	});

	it('keeps the salt, the hashes and the landings out of every backup', async () => {
		const tally = new AudienceTally(today);
		tally.count(visit('10.7.0.1', '/macon?utm_campaign=printemps'), 'atelier.fr');
		await write(tally);
		expect((await database.db.select().from(audienceSalts)).length).toBe(1);
		const spool = await mkdtemp(path.join(tmpdir(), 'atelier-snapshot-'));
		try {
			const files = await snapshotTables(database.db, spool);
			for (const table of ['audience_salts', 'audience_landings', 'audience_visitor_rows']) {
				const file = files.find((f) => f.table === table)!;
				expect(file.rows, table).toBe(0);
				expect(await readFile(file.file, 'utf8'), table).toBe('');
			}
			// The counts are the business's: they are kept.
			expect(files.find((f) => f.table === 'audience_daily')!.rows).toBe(1);
		} finally {
			await rm(spool, { recursive: true, force: true });
		}
	});

	// Several instances share one database only on a server: PGlite belongs to one process.
	it.runIf(serverUrl)(
		'adds up what 4 instances count and write at the same moment, 20 times over: each visitor once',
		async () => {
			const { openDatabase } = await import('../../src/lib/server/db');
			const instances = Array.from({ length: 4 }, () => ({
				database: openDatabase({ url: database.url!, max: 2 }),
				tally: new AudienceTally(today),
				ledger: new AudienceLedger()
			}));
			try {
				for (let round = 0; round < 20; round++) {
					// The same 25 people each round, each request to any instance (as a load balancer sends them).
					for (const [n, instance] of instances.entries())
						for (let i = 0; i < 25; i++)
							instance.tally.count(
								visit(`10.4.0.${(i + n + round) % 25}`, i % 2 ? '/macon' : '/paysagiste'),
								'atelier.fr'
							);
					await Promise.all(
						instances.map((i) => writeVisits(i.database.db, i.tally.drain(), i.ledger, today()))
					);
				}
			} finally {
				await Promise.all(instances.map((i) => i.database.close()));
			}
			const rows = await database.db.select().from(audienceDaily);
			const views = rows.reduce((sum, row) => sum + row.views, 0);
			expect(views).toBe(4 * 20 * 25);
			// Each person once a day, and once in each row they were counted in, whatever instance saw them.
			expect(await database.db.select().from(audienceVisitors)).toEqual([
				{ day: '2026-11-26', visitors: 25, views: 2000, visits: expect.any(Number) }
			]);
			const pairs = await database.db.select().from(audienceVisitorRows);
			const pageMarks = new Set(['/macon', '/paysagiste'].map(pageHash));
			const rowPairs = pairs.filter((pair) => !pageMarks.has(pair.row));
			expect(rows.reduce((sum, row) => sum + row.visitors, 0)).toBe(rowPairs.length);
			// And each page's visitors are people, once each whatever instance counted them.
			const pages = await database.db.select().from(audiencePages);
			expect(pages.reduce((sum, page) => sum + page.visitors, 0)).toBe(pairs.length - rowPairs.length);
			expect(pages.map((page) => page.visitors)).toEqual([expect.any(Number), expect.any(Number)]);
			for (const page of pages) expect(page.visitors).toBeLessThanOrEqual(25);
			expect((await database.db.select().from(audienceSalts)).length).toBe(1);
		}
	);
});
