import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { attribute, DayBook, visitorHash, type Landing } from './attribution';
import {
	AUDIENCE_BOUNDS,
	AudienceTally,
	campaignOf,
	canonicalPath,
	dayOf,
	deviceOf,
	isCountable,
	referrerHostOf,
	visitOfKey,
	type CountableRequest
} from './audience';

const PHONE =
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const DESKTOP =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const page = (over: Partial<CountableRequest> & { headers?: CountableRequest['headers'] } = {}) => ({
	method: 'GET',
	url: '/macon',
	status: 200,
	contentType: 'text/html; charset=utf-8',
	address: '203.0.113.7',
	...over,
	headers: { 'user-agent': PHONE, ...over.headers }
});

describe('what is counted', () => {
	it('a person’s page answered 200 in HTML, or 304 when the browser revalidated the copy it holds', () => {
		expect(isCountable(page())).toBe(true);
		expect(isCountable(page({ status: 304 }))).toBe(true);
		expect(isCountable(page({ status: 304, contentType: undefined }))).toBe(false);
	});

	it('never a bot, a prefetch, a HEAD, an error, an asset, the admin or the members’ area, nor Sec-GPC: 1', () => {
		expect(
			isCountable(page({ headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } }))
		).toBe(false);
		expect(isCountable(page({ headers: { 'user-agent': '' } }))).toBe(false);
		expect(isCountable(page({ headers: { 'sec-purpose': 'prefetch;prerender' } }))).toBe(false);
		expect(isCountable(page({ headers: { 'sec-gpc': '1' } }))).toBe(false);
		expect(isCountable(page({ method: 'HEAD' }))).toBe(false);
		expect(isCountable(page({ status: 404 }))).toBe(false);
		expect(isCountable(page({ contentType: 'image/webp' }))).toBe(false);
		for (const url of [
			'/admin',
			'/admin/demandes',
			'/profil',
			'/cours/un',
			'/api/devis',
			'/_app/x.js',
			'/login'
		])
			expect(isCountable(page({ url }))).toBe(false);
		expect(isCountable(page({ url: '/administratif' }))).toBe(true);
	});
});

describe('what is kept of a visit', () => {
	it('the other site’s host only, never ours, never the full referrer', () => {
		expect(referrerHostOf('https://www.google.fr/search?q=macon+lyon', 'atelier.fr')).toBe('google.fr');
		expect(referrerHostOf('https://atelier.fr/paysagiste', 'atelier.fr')).toBe('');
		expect(referrerHostOf('https://www.atelier.fr/', 'atelier.fr')).toBe('');
		expect(referrerHostOf('android-app://com.google', 'atelier.fr')).toBe('');
		expect(referrerHostOf('pas une adresse', 'atelier.fr')).toBe('');
	});

	it('the campaign’s three utm fields, trimmed and bounded', () => {
		expect(campaignOf('/macon?utm_source=Newsletter&utm_medium=email&utm_campaign=printemps&x=1')).toEqual({
			utmSource: 'newsletter',
			utmMedium: 'email',
			utmCampaign: 'printemps'
		});
		expect(campaignOf('/macon').utmCampaign).toBe('');
		expect(campaignOf(`/?utm_campaign=${'a'.repeat(500)}`).utmCampaign).toHaveLength(100);
	});

	it('a device class', () => {
		expect(deviceOf(PHONE)).toBe('mobile');
		expect(deviceOf(DESKTOP)).toBe('desktop');
		expect(deviceOf('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe('tablet');
	});

	it('the day in France', () => {
		expect(dayOf(new Date('2026-11-26T23:30:00Z'))).toBe('2026-11-27');
		expect(dayOf(new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
	});
});

const DAY = '2026-11-26';
const SALT = 'le sel du jour';
/** One write's attribution, as the writer does it (visits.ts), against what the database knew (`known`). */
function tellApart(tally: AudienceTally, book = new DayBook(DAY), known = new Map<string, Landing>()) {
	const { hits } = tally.drain();
	const visitors = hits.map((hit) => visitorHash(SALT, hit.address, hit.agent));
	const attributed = attribute(hits, visitors, known, book);
	const rows = [...attributed.rows].map(([key, counts]) => ({
		...visitOfKey(key),
		...counts,
		visitors: attributed.visitorsByRow.get(key)?.size ?? 0
	}));
	return { rows, attributed };
}

describe('the tally', () => {
	it('counts views and visitors per row, and each visitor once a day', () => {
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		const landing = page({
			url: '/macon?utm_campaign=printemps',
			headers: { referer: 'https://www.google.fr/' }
		});
		expect(tally.count(landing, 'atelier.fr')).toBe(true);
		tally.count(landing, 'atelier.fr');
		tally.count(page({ url: '/devis', headers: { referer: 'https://atelier.fr/macon' } }), 'atelier.fr');
		tally.count(page({ address: '198.51.100.2', headers: { 'user-agent': DESKTOP } }), 'atelier.fr');
		const { rows, attributed } = tellApart(tally);
		// Two visitors began their day: the database is told both, and keeps those no instance had seen.
		expect(attributed.landings.size).toBe(2);
		expect(rows).toContainEqual({
			day: DAY,
			path: '/macon',
			referrerHost: 'google.fr',
			utmSource: '',
			utmMedium: '',
			utmCampaign: 'printemps',
			device: 'mobile',
			views: 2,
			visitors: 1,
			entries: 1
		});
		// The next page of the visit, linked from our own site, is counted under the visit's source.
		expect(rows.find((r) => r.path === '/devis')).toMatchObject({
			referrerHost: 'google.fr',
			utmCampaign: 'printemps',
			views: 1,
			visitors: 1,
			entries: 0
		});
		expect(tally.drain().hits).toHaveLength(0);
	});

	it('keeps a person’s same view again as one hit that says how many, and tells it apart as the views one by one', () => {
		// A day of three people reloading, browsing and coming back from elsewhere, interleaved at random.
		let seed = 7;
		const random = (n: number) => (((seed = (seed * 48271) % 2147483647) % n) + n) % n;
		const people = [
			{ address: '203.0.113.7', agent: PHONE },
			{ address: '203.0.113.7', agent: DESKTOP },
			{ address: '198.51.100.2', agent: PHONE }
		];
		const urls = ['/', '/macon', '/macon?utm_source=lettre', '/devis'];
		const referers = [undefined, 'https://www.google.fr/', 'https://atelier.fr/macon'];
		const requests = Array.from({ length: 400 }, () => {
			const who = people[random(people.length)]!;
			const referer = referers[random(referers.length)];
			// Often the same view as that person's last: a reload.
			return page({
				address: who.address,
				url: urls[random(2) === 0 ? 0 : random(urls.length)]!,
				headers: { 'user-agent': who.agent, ...(referer ? { referer } : {}) }
			});
		});
		const repeated = requests.flatMap((request) => [request, request, request]);
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		for (const request of repeated) tally.count(request, 'atelier.fr');
		const { hits } = tally.drain();
		expect(hits.reduce((sum, hit) => sum + hit.views, 0)).toBe(repeated.length);
		expect(hits.length).toBeLessThanOrEqual(requests.length);
		// Each hit as the views it stands for, one by one, where the first of them came.
		const oneByOne = hits.flatMap((hit) => Array.from({ length: hit.views }, () => ({ ...hit, views: 1 })));
		const told = (list: typeof hits) => {
			const attributed = attribute(
				list,
				list.map((hit) => visitorHash(SALT, hit.address, hit.agent)),
				new Map(),
				new DayBook(DAY)
			);
			return {
				rows: Object.fromEntries(attributed.rows),
				visitors: Object.fromEntries(
					[...attributed.visitorsByRow].map(([key, set]) => [key, [...set].sort()])
				),
				landings: Object.fromEntries(attributed.landings)
			};
		};
		expect(told(hits)).toEqual(told(oneByOne));
		// And the same as a tally that kept every view apart, in the order they came.
		const apart = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		const separate = repeated.flatMap((request) => {
			apart.count(request, 'atelier.fr');
			return apart.drain().hits;
		});
		expect(separate).toHaveLength(repeated.length);
		expect(told(hits)).toEqual(told(separate));
	});

	it('keeps 512 characters of a User-Agent, however long a client sends it', () => {
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		const long = `${DESKTOP} ${'x'.repeat(10_000)}`;
		tally.count(page({ headers: { 'user-agent': long } }), 'atelier.fr');
		tally.count(page({ headers: { 'user-agent': long } }), 'atelier.fr');
		const { hits } = tally.drain();
		expect(hits).toHaveLength(1);
		expect(hits[0]!.agent).toBe(long.slice(0, 512));
		expect(hits[0]!.views).toBe(2);
		// A lead sent with the whole header finds the visitor those views were counted under.
		expect(visitorHash(SALT, hits[0]!.address, long)).toBe(
			visitorHash(SALT, hits[0]!.address, hits[0]!.agent)
		);
	});

	it('counts a visit where it begins: the first page of the day, or a page reached from elsewhere', () => {
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		const at = (url: string, referer?: string) =>
			tally.count(page({ url, headers: referer ? { referer } : {} }), 'atelier.fr');
		at('/'); // typed: a direct visit begins
		at('/macon', 'https://atelier.fr/'); // the same visit
		at('/paysagiste?utm_source=lettre&utm_campaign=hiver'); // a campaign's link: a second visit
		at('/devis', 'https://atelier.fr/paysagiste'); // under the campaign's visit
		at('/paysagiste?utm_source=lettre&utm_campaign=hiver'); // the same campaign again: the same visit
		at('/', 'https://www.qwant.com/?q=macon'); // another site: a third visit
		const { rows, attributed } = tellApart(tally);
		const summary = rows
			.map((r) => `${r.path} ${r.referrerHost || r.utmSource || '-'} ${r.views}/${r.entries}`)
			.sort();
		expect(summary).toEqual([
			'/ - 1/1',
			'/ qwant.com 1/1',
			'/devis lettre 1/0',
			'/macon - 1/0',
			'/paysagiste lettre 2/1'
		]);
		// Where the visitor first came from from outside stays what their lead is attributed to.
		const visitor = visitorHash(SALT, '203.0.113.7', PHONE);
		expect(attributed.landings.get(visitor)?.first).toMatchObject({
			path: '/paysagiste',
			utmSource: 'lettre'
		});
	});

	it('goes on from where another instance left a visitor: their visit, their first landing', () => {
		const visitor = visitorHash(SALT, '203.0.113.7', PHONE);
		const campaign = { referrerHost: '', utmSource: 'lettre', utmMedium: 'email', utmCampaign: 'hiver' };
		const known = new Map<string, Landing>([
			[visitor, { visit: campaign, first: { ...campaign, path: '/' } }]
		]);
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		tally.count(page({ url: '/devis', headers: { referer: 'https://atelier.fr/' } }), 'atelier.fr');
		tally.count(page({ url: '/', headers: { referer: 'https://www.qwant.com/' } }), 'atelier.fr');
		const { rows, attributed } = tellApart(tally, new DayBook(DAY), known);
		// The first page here is one of the visit another instance saw begin: no new visit, under its campaign.
		expect(rows.find((r) => r.path === '/devis')).toMatchObject({ utmCampaign: 'hiver', entries: 0 });
		// A new visit from another site; the campaign stays where the visitor first came from.
		expect(attributed.landings.get(visitor)).toEqual({
			visit: { referrerHost: 'qwant.com', utmSource: '', utmMedium: '', utmCampaign: '' },
			first: { ...campaign, path: '/' }
		});
	});

	it('puts invented sources past 20 000 rows a day under « (autres) », so a flood of them adds no rows', () => {
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		for (let i = 0; i < 20_500; i++) tally.count(page({ url: `/macon?utm_campaign=c${i}` }), 'atelier.fr');
		const { rows } = tellApart(tally);
		expect(rows).toHaveLength(20_001);
		expect(rows.find((r) => r.referrerHost === '(autres)')).toMatchObject({ utmCampaign: '', views: 500 });
	});

	it('records the canonical path: a page spelt otherwise is the same page', () => {
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		for (const url of [
			'/mentions-legales',
			'/m%65ntions-legales',
			'/%6D%65ntions%2Dlegales?x=1',
			'/mentions-legales/'
		])
			expect(tally.count(page({ url }), 'atelier.fr')).toBe(true);
		const { rows } = tellApart(tally);
		expect(rows).toEqual([expect.objectContaining({ path: '/mentions-legales', views: 4, visitors: 1 })]);
		// What no link of the site looks like is not a page: not counted.
		for (const url of [
			'//mentions-legales',
			'/a/../mentions-legales',
			'/%2e%2e/x',
			'/a%2Fb',
			'/%00',
			'/%E0%A4%A',
			'/x%0A'
		])
			expect(canonicalPath(url), url).toBeNull();
		// The members' area, however spelt, stays uncounted.
		expect(isCountable(page({ url: '/%63ours/mur' }))).toBe(false);
		expect(canonicalPath('/r%C3%A9alisations/mur-en-pierre')).toBe('/réalisations/mur-en-pierre');
		expect(canonicalPath('/re\u0301alisations')).toBe('/réalisations');
	});

	it('holds a flood of a million requests within its bounds, in rows and in memory', async () => {
		// A fresh process with --expose-gc, to weigh what the process holds for the day once the garbage is gone.
		// Bundled first (esbuild, as the server entry is): plain node cannot resolve the extensionless TypeScript
		// imports of the app's modules.
		const bundle = path.join(mkdtempSync(path.join(tmpdir(), 'atelier-audience-')), 'audience.mjs');
		await build({
			stdin: {
				contents: "export * from './audience'; export * from './attribution';",
				resolveDir: import.meta.dirname,
				loader: 'ts'
			},
			bundle: true,
			format: 'esm',
			platform: 'node',
			outfile: bundle,
			logLevel: 'silent'
		});
		const audience = pathToFileURL(bundle).href;
		// Every 50,000 requests, a write: the views told apart as the writer does, against a database that knew none
		// of the visitors (what it holds is the database's, not this process's).
		const script = `
			import { AudienceTally, DayBook, attribute, visitorHash } from ${JSON.stringify(audience)};
			const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
			const book = new DayBook('2026-11-26');
			const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
			const spell = (i) => '/' + [...'mentions-legales'].map((c, j) => ((i >> (j % 20)) & 1 ? '%' + c.charCodeAt(0).toString(16) : c)).join('');
			// Every field a client chooses, at the longest that is kept (100 characters).
			const long = (prefix, i) => (prefix + i).padEnd(100, 'x');
			globalThis.gc();
			const before = process.memoryUsage().heapUsed;
			let rows = 0, views = 0, visitors = 0;
			const write = () => {
				const { hits } = tally.drain();
				const found = attribute(hits, hits.map((h) => visitorHash('sel', h.address, h.agent)), new Map(), book);
				rows = Math.max(rows, found.rows.size);
				for (const row of found.rows.values()) views += row.views;
				for (const seen of found.visitorsByRow.values()) visitors += seen.size;
			};
			for (let i = 0; i < 1_000_000; i++) {
				const request = {
					method: 'GET', status: 200, contentType: 'text/html',
					// Half spell one page a new way; half invent a source, a campaign and a visitor each time.
					url: i % 2 ? spell(i) : '/macon?utm_source=' + long('s', i) + '&utm_medium=' + long('m', i) + '&utm_campaign=' + long('c', i),
					address: i % 2 ? '203.0.113.7' : '10.' + (i >> 16 & 255) + '.' + (i >> 8 & 255) + '.' + (i & 255),
					headers: { 'user-agent': agent + ' ' + (i % 1000), referer: 'https://' + long('h', i) + '.fr/' }
				};
				tally.count(request, 'atelier.fr');
				if (i % 50_000 === 49_999) write();
			}
			globalThis.gc();
			const held = process.memoryUsage().heapUsed - before;
			console.log(JSON.stringify({ held, views, visitors, rowsToday: book.rows.size, visitorsAdded: book.visitorsAdded }));`;
		const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
			encoding: 'utf8'
		});
		rmSync(path.dirname(bundle), { recursive: true, force: true });
		const figures = JSON.parse(out.trim().split('\n').at(-1)!);
		console.info('a million requests in one day:', figures);
		expect(figures.views).toBe(1_000_000);
		expect(figures.rowsToday).toBeLessThanOrEqual(AUDIENCE_BOUNDS.rows + AUDIENCE_BOUNDS.overflowRows + 3);
		expect(figures.visitorsAdded).toBe(AUDIENCE_BOUNDS.visitors);
		expect(figures.visitors).toBeLessThanOrEqual(AUDIENCE_BOUNDS.visitorRows);
		expect(figures.held).toBeLessThan(64 * 1024 * 1024);
		// A million requests take ~25 s alone, more beside other suites on two cores: not a figure this test checks.
	}, 120_000);

	it('keeps at most a batch of views waiting; past it, counts them without their visitor', () => {
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		// As many people as views: the same view again would add to its hit, not wait as one of its own.
		const someone = (i: number) => page({ address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
		for (let i = 0; i < AUDIENCE_BOUNDS.pendingHits + 7; i++) tally.count(someone(i), 'atelier.fr');
		// A person already waiting who views the page again: one more view of their hit, even with the batch full.
		tally.count(someone(3), 'atelier.fr');
		const batch = tally.drain();
		expect(batch.hits).toHaveLength(AUDIENCE_BOUNDS.pendingHits);
		expect(batch.hits[3]!.views).toBe(2);
		expect(batch.overflow.get(DAY)).toBe(7);
	});

	it('gives back the views of a write that failed, before the newer ones', () => {
		const tally = new AudienceTally(() => new Date('2026-11-26T10:00:00Z'));
		tally.count(page({ url: '/macon?utm_campaign=printemps' }), 'atelier.fr');
		tally.countEvent('candidature-draft-started');
		const failed = tally.drain();
		tally.count(page({ url: '/devis' }), 'atelier.fr');
		tally.restore(failed);
		const { hits, events } = tally.drain();
		expect(hits.map((hit) => hit.path)).toEqual(['/macon', '/devis']);
		expect([...events.values()]).toEqual([1]);
	});
});

describe('the period a page asks for', () => {
	it('is one of 30 days, 90 days, 12 months; anything else is 30 days', async () => {
		const { periodOf } = await import('./dashboard');
		expect(periodOf(new URLSearchParams('periode=12m'))).toBe('12m');
		expect(periodOf(new URLSearchParams('periode=90j'))).toBe('90j');
		for (const bad of [
			'',
			'periode=',
			'periode=7j',
			'periode=__proto__',
			'periode=toString',
			'periode=12m%00'
		])
			expect(periodOf(new URLSearchParams(bad))).toBe('30j');
	});

	it('is offered by the dashboard as exactly the periods it understands, each one link', async () => {
		const { PERIOD_CHOICES, PERIODS, periodOf } = await import('./dashboard');
		expect(PERIOD_CHOICES.map((choice) => choice.key)).toEqual(Object.keys(PERIODS));
		for (const { key } of PERIOD_CHOICES) expect(periodOf(new URLSearchParams({ periode: key }))).toBe(key);
	});
});

describe('the filter a dashboard link asks for', () => {
	it('reads a page, a source (empty: direct), a campaign and a device, and writes them back as one URL', async () => {
		const { filterOf } = await import('./dashboard');
		const { dashboardSearch } = await import('../../dashboard-filter');
		const asked = new URLSearchParams(
			'periode=90j&page=/macon&source=Google.fr&campagne=printemps&appareil=mobile'
		);
		const filter = filterOf(asked);
		// A site's host is read as the name the dashboard shows it under (source-names.ts); the name comes back as is.
		expect(filter).toEqual({ page: '/macon', source: 'Google', campaign: 'printemps', device: 'mobile' });
		expect(filterOf(new URLSearchParams(dashboardSearch('90j', filter)))).toEqual(filter);
		expect(filterOf(new URLSearchParams('source=Lettre'))).toEqual({ source: 'lettre' });
		expect(dashboardSearch('30j', { source: '' })).toBe('?periode=30j&source=');
		expect(filterOf(new URLSearchParams('source='))).toEqual({ source: '' });
	});

	it('drops what no row could hold, as an unknown period is: a shared link never breaks the page', async () => {
		const { filterOf } = await import('./dashboard');
		for (const bad of [
			'page=macon',
			'page=/macon/',
			'page=/a/../admin',
			'page=/macon%00',
			`page=/${'a'.repeat(300)}`,
			`source=${'a'.repeat(101)}`,
			'campagne=',
			'appareil=toaster',
			'appareil=__proto__'
		])
			expect(filterOf(new URLSearchParams(bad))).toEqual({});
	});
});
