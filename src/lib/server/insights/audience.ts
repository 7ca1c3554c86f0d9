/**
 * Audience measurement inside the server, without a cookie or a script (issue "Insights", point 1), on the method
 * of Plausible: a page answered 200 to a person is counted with its day, path, the host that sent the visitor
 * (never the full referrer, never our own host), its utm_source / utm_medium / utm_campaign and a device class.
 * A visitor is told apart for one day only, by a hash of their address and browser salted with a random value
 * that lives in memory, changes every day and is never written anywhere: the next day nothing links them.
 *
 * What is never counted: a bot (isbot's maintained list, or no User-Agent), a prefetch (`Sec-Purpose`), a HEAD, an
 * asset, the admin, the members' area and the API, anything but an HTML page answered 200 (or 304: revalidated from
 * the browser's cache), and a browser that sends `Sec-GPC: 1`.
 *
 * The tally is kept in memory, process-wide (the server entry counts, the app writes: process-wide.js), and written
 * to the database in one statement every few seconds (index.ts). A crash loses at most those seconds' visits.
 * Nothing here touches the database: the server entry bundles it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isbot } from 'isbot';
import { setBounded } from '../../bounded-map.js';
import { isUncountedPath } from '../../pages/registry';
import { processWide } from '../process-wide.js';

export type Device = 'mobile' | 'tablet' | 'desktop';

/** Where a visit came from: the other site's host and the campaign, each '' when unknown. */
export interface Source {
	referrerHost: string;
	utmSource: string;
	utmMedium: string;
	utmCampaign: string;
}

export interface Visit extends Source {
	/** The day in France (Europe/Paris), as the owner reads it: YYYY-MM-DD. */
	day: string;
	path: string;
	device: Device;
}

/** What a request said, as far as counting goes (the server entry reads it off node's request). */
export interface CountableRequest {
	method: string;
	url: string;
	status: number;
	contentType: string | undefined;
	headers: Record<string, string | string[] | undefined>;
	address: string;
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

/** Whether this answer is a person's page view that may be counted. */
export const isCountable = (request: CountableRequest) => countedPath(request) !== null;

/** The canonical path of a person's page view that may be counted; null for anything else. */
function countedPath(request: CountableRequest): string | null {
	// 304: the browser had the page and revalidated it (its ETag) — a page viewed all the same.
	if (request.method !== 'GET' || (request.status !== 200 && request.status !== 304)) return null;
	if (!request.contentType?.startsWith('text/html')) return null;
	const { headers } = request;
	if (headers['sec-gpc'] !== undefined && header(headers['sec-gpc']).trim() === '1') return null;
	// Chromium's prerender and prefetch say `Sec-Purpose: prefetch` (`;prerender`); older ones `Purpose`.
	if (
		(headers['sec-purpose'] !== undefined || headers['purpose'] !== undefined) &&
		/prefetch|prerender/i.test(header(headers['sec-purpose']) + header(headers['purpose']))
	)
		return null;
	const agent = header(headers['user-agent']);
	if (!agent || agentOf(agent).bot) return null;
	const path = canonicalPath(request.url);
	return path !== null && !isUncountedPath(path) ? path : null;
}

/** What a User-Agent says, looked up once per distinct string (the bot list is one large regular expression). */
const agents = new Map<string, { bot: boolean; device: Device }>();
function agentOf(agent: string) {
	let known = agents.get(agent);
	if (!known) {
		known = { bot: isbot(agent), device: deviceOf(agent) };
		setBounded(agents, agent, known, 2_000);
	}
	return known;
}

/** Longer than any link of the site, even percent-encoded: not a page's. */
const MAX_RAW_PATH = 1_000;
const MAX_PATH = 200;

/**
 * The page's canonical path — the one its own links use — or null when the request's path is not one: the query
 * dropped, each segment percent-decoded (`/m%65ntions-legales` is `/mentions-legales`, so a million spellings of a
 * page are one page), Unicode in NFC, the trailing slash dropped. Empty segments, dot segments, an encoded `/`,
 * a NUL or a control character, or an encoding that does not decode: no page of the site is linked so, so nothing is
 * counted. Recorded is this, never the raw string.
 */
export function canonicalPath(url: string): string | null {
	const end = url.search(/[?#]/);
	const raw = end === -1 ? url : url.slice(0, end);
	if (!raw.startsWith('/') || raw.length > MAX_RAW_PATH) return null;
	if (raw === '/') return raw;
	const segments = raw.slice(1).replace(/\/$/, '').split('/');
	const decoded: string[] = [];
	for (const segment of segments) {
		let text: string;
		try {
			text = decodeURIComponent(segment).normalize('NFC');
		} catch {
			return null;
		}
		// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
		if (!text || text === '.' || text === '..' || /[/\\\u0000-\u001f\u007f]/.test(text)) return null;
		decoded.push(text);
	}
	const path = `/${decoded.join('/')}`;
	return path.length <= MAX_PATH ? path : null;
}

const FIELD_MAX = 100;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is dropped
const CONTROL_CHARACTERS = /[\u0000-\u001f]/g;
/** Lower-cased, trimmed, without control characters, at most 100 characters. */
const clean = (value: string | null | undefined) =>
	(value ?? '').trim().toLowerCase().replace(CONTROL_CHARACTERS, '').slice(0, FIELD_MAX);

/** The other site's host (never the full referrer); '' for none, for our own host, or for what is not a URL. */
export function referrerHostOf(referer: string | undefined, ownHost: string): string {
	if (!referer) return '';
	try {
		const url = new URL(referer);
		if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
		const host = url.hostname.toLowerCase().replace(/^www\./, '');
		return host === ownHost.toLowerCase().replace(/^www\./, '') ? '' : clean(host);
	} catch {
		return '';
	}
}

/** The campaign a link carried (`utm_source`, `utm_medium`, `utm_campaign`), each '' when absent. */
export function campaignOf(url: string): Pick<Source, 'utmSource' | 'utmMedium' | 'utmCampaign'> {
	const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
	return {
		utmSource: clean(query.get('utm_source')),
		utmMedium: clean(query.get('utm_medium')),
		utmCampaign: clean(query.get('utm_campaign'))
	};
}

const NO_CAMPAIGN = { utmSource: '', utmMedium: '', utmCampaign: '' } as const;
const sameSource = (a: Source, b: Source) =>
	a.referrerHost === b.referrerHost &&
	a.utmSource === b.utmSource &&
	a.utmMedium === b.utmMedium &&
	a.utmCampaign === b.utmCampaign;

/** Phone, tablet or computer, from the User-Agent alone. */
export function deviceOf(agent: string): Device {
	if (/iPad|Tablet|PlayBook|Silk|Kindle|Android(?!.*Mobile)/i.test(agent)) return 'tablet';
	if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(agent)) return 'mobile';
	return 'desktop';
}

const PARIS_DAY = new Intl.DateTimeFormat('en-CA', {
	timeZone: 'Europe/Paris',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit'
});

/** The day in France, YYYY-MM-DD. */
export const dayOf = (at: Date) => PARIS_DAY.format(at);

/** A visit's key in the tally: one row of the daily table. */
const keyOf = (visit: Visit) =>
	[
		visit.day,
		visit.path,
		visit.referrerHost,
		visit.utmSource,
		visit.utmMedium,
		visit.utmCampaign,
		visit.device
	].join('\u0001');

export const visitOfKey = (key: string): Visit => {
	const [day, path, referrerHost, utmSource, utmMedium, utmCampaign, device] = key.split('\u0001');
	return {
		day: day!,
		path: path!,
		referrerHost: referrerHost!,
		utmSource: utmSource!,
		utmMedium: utmMedium!,
		utmCampaign: utmCampaign!,
		device: device as Device
	};
};

/** Counts waiting to be written: views, new visitors and visits begun per row, new visitors per day, events per day. */
export interface PendingCounts {
	rows: Map<string, { views: number; visitors: number; entries: number }>;
	days: Map<string, number>;
	/** `day\u0001kind` → how many. */
	events: Map<string, number>;
}

/** Steps of a journey that no table keeps, counted per day. */
export type AudienceEvent = 'candidature-draft-started';

/**
 * The day's bounds (per instance), so that what anonymous clients send can never grow memory or the table without
 * limit. The paths are the site's own (canonicalPath, and only 200 pages count), but the Referer and the utm fields
 * are whatever a client sends; the visitors are whoever asks.
 * - Rows: past `rows` distinct page/source/campaign/device rows, a new combination is counted under the source
 *   « (autres) » for its page; past `overflowRows` of those, under the page « (autres) » too. At most
 *   rows + overflowRows + 3 (one per device) rows a day, whatever is sent.
 * - Visitors: past `visitors`, a new visitor's views are counted, not the visitor.
 * - Which rows each visitor was counted in (so a visitor counts once per row): at most `visitorRows` pairs a
 *   day, kept as numbers; past it, views only.
 * Measured with a flood of a million requests (audience.test.ts), every field a client chooses at its longest kept
 * (100 characters): the day's tally then holds 47 MB until midnight (21 MB with short ones), 20,002 rows.
 */
export const AUDIENCE_BOUNDS = {
	rows: 20_000,
	overflowRows: 1_000,
	visitors: 50_000,
	visitorRows: 200_000
} as const;
const OTHER_SOURCES: Source = { referrerHost: '(autres)', utmSource: '', utmMedium: '', utmCampaign: '' };
const OTHER_PAGES = '(autres)';
/** A visitor's index times this, plus a row's index, names the pair: rows stay far below it. */
const PAIR_STRIDE = 2 ** 21;

/**
 * The day's tally of one process. `count` is called by the server entry as each answer ends; `drain` by the app
 * every few seconds, which writes what it returns. The salt and the visitors seen today are in memory only, and
 * forgotten when the day changes.
 */
export class AudienceTally {
	private day = '';
	private salt = Buffer.alloc(0);
	/** Visitors seen today: their hash → their index. */
	private seen = new Map<string, number>();
	/** (visitor, row) pairs already counted a visitor: `visitor × PAIR_STRIDE + row`. */
	private visitorRows = new Set<number>();
	/**
	 * Each visitor of today: the source of their current visit, and where they first came from (what a lead or
	 * candidature sent later is attributed to).
	 */
	private landings = new Map<string, { visit: Source; first: Source & { path: string } }>();
	private pending: PendingCounts = { rows: new Map(), days: new Map(), events: new Map() };
	/** Every row counted today → its index (AUDIENCE_BOUNDS.rows and overflowRows bound them). */
	private rowsToday = new Map<string, number>();
	private overflowRows = 0;

	private readonly now: () => Date;
	constructor(now: () => Date = () => new Date()) {
		this.now = now;
	}

	/** The visitor's hash for today: salted, so it means nothing tomorrow or outside this process. */
	visitorOf(address: string, agent: string): string {
		this.rollDay();
		return createHash('sha256')
			.update(this.salt)
			.update(address)
			.update('\0')
			.update(agent)
			.digest('base64url');
	}

	count(request: CountableRequest, ownHost: string): boolean {
		const path = countedPath(request);
		if (path === null) return false;
		const agent = header(request.headers['user-agent']);
		const visitor = this.visitorOf(request.address, agent);
		const referer = request.headers.referer;
		const arrivedFrom: Source = {
			referrerHost: referer ? referrerHostOf(header(referer), ownHost) : '',
			...(request.url.includes('?') ? campaignOf(request.url) : NO_CAMPAIGN)
		};
		let visitorIndex = this.seen.get(visitor);
		if (visitorIndex === undefined && this.seen.size < AUDIENCE_BOUNDS.visitors) {
			visitorIndex = this.seen.size;
			this.seen.set(visitor, visitorIndex);
			this.pending.days.set(this.day, (this.pending.days.get(this.day) ?? 0) + 1);
		}
		// A visit begins with the visitor's first page of the day, or with a page reached from another site or a
		// campaign than the visit's own; every other page is counted under the source of the visit it belongs to
		// (as Plausible counts a session's pages under its entry's source), so that a source's figures are its
		// visitors' pages, not only their first.
		const landing = visitorIndex === undefined ? undefined : this.landings.get(visitor);
		const fromOutside = Boolean(arrivedFrom.referrerHost || arrivedFrom.utmSource || arrivedFrom.utmCampaign);
		const entry =
			visitorIndex !== undefined && (!landing || (fromOutside && !sameSource(arrivedFrom, landing.visit)));
		const source = fromOutside || !landing ? arrivedFrom : landing.visit;
		const visit: Visit = { day: this.day, path, device: agentOf(agent).device, ...source };
		const key = this.boundedKey(visit);
		const row = this.rowsToday.get(key)!;
		const counted = this.pending.rows.get(key) ?? { views: 0, visitors: 0, entries: 0 };
		counted.views++;
		if (entry) counted.entries++;
		if (visitorIndex !== undefined) {
			const pair = visitorIndex * PAIR_STRIDE + row;
			if (!this.visitorRows.has(pair) && this.visitorRows.size < AUDIENCE_BOUNDS.visitorRows) {
				this.visitorRows.add(pair);
				counted.visitors++;
			}
		}
		this.pending.rows.set(key, counted);
		if (entry) {
			// What a lead or candidature sent later is attributed to: the first landing of the day, or the first that
			// came from another site or a campaign.
			const first = landing?.first;
			const keepFirst = first && (first.referrerHost || first.utmSource);
			this.landings.set(visitor, {
				visit: source,
				first: keepFirst ? first : { ...source, path: visit.path }
			});
		}
		return true;
	}

	/** The visit's row, or the « (autres) » one its bounds send it to; the row is known by its index after. */
	private boundedKey(visit: Visit): string {
		let key = keyOf(visit);
		if (this.rowsToday.has(key)) return key;
		if (this.rowsToday.size - this.overflowRows >= AUDIENCE_BOUNDS.rows) {
			key = keyOf({ ...visit, ...OTHER_SOURCES });
			if (!this.rowsToday.has(key)) {
				if (this.overflowRows >= AUDIENCE_BOUNDS.overflowRows)
					key = keyOf({ ...visit, ...OTHER_SOURCES, path: OTHER_PAGES });
				if (!this.rowsToday.has(key)) this.overflowRows++;
			}
		}
		if (!this.rowsToday.has(key)) this.rowsToday.set(key, this.rowsToday.size);
		return key;
	}

	/** Where this visitor came from today, when this process saw them land. */
	landingOf(address: string, agent: string): (Source & { path: string }) | null {
		return this.landings.get(this.visitorOf(address, agent))?.first ?? null;
	}

	/** What was counted since the last drain; the tally starts the next batch empty. */
	drain(): PendingCounts {
		const drained = this.pending;
		this.pending = { rows: new Map(), days: new Map(), events: new Map() };
		return drained;
	}

	/** A write that failed: its counts go back, to be written with the next batch. */
	restore(counts: PendingCounts): void {
		for (const [key, row] of counts.rows) {
			const current = this.pending.rows.get(key) ?? { views: 0, visitors: 0, entries: 0 };
			this.pending.rows.set(key, {
				views: current.views + row.views,
				visitors: current.visitors + row.visitors,
				entries: current.entries + row.entries
			});
		}
		for (const [day, n] of counts.days) this.pending.days.set(day, (this.pending.days.get(day) ?? 0) + n);
		for (const [key, n] of counts.events)
			this.pending.events.set(key, (this.pending.events.get(key) ?? 0) + n);
	}

	/** One more of a step that no table keeps (a candidature draft started). */
	countEvent(kind: AudienceEvent): void {
		const key = `${dayOf(this.now())}\u0001${kind}`;
		this.pending.events.set(key, (this.pending.events.get(key) ?? 0) + 1);
	}

	/** When the day was last read: formatting a date in Paris' time is slow, and a second late is close enough. */
	private dayReadAt = -Infinity;

	private rollDay() {
		const now = this.now();
		if (now.getTime() - this.dayReadAt < 1_000 && now.getTime() >= this.dayReadAt) return;
		this.dayReadAt = now.getTime();
		const today = dayOf(now);
		if (today === this.day) return;
		this.day = today;
		this.salt = randomBytes(32);
		this.seen = new Map();
		this.visitorRows = new Set();
		this.landings = new Map();
		this.rowsToday = new Map();
		this.overflowRows = 0;
	}
}

/** Where a lead or a candidature came from: the page it was sent from, and the visit's source when known. */
export interface Origin extends Partial<Source> {
	sourcePage: string | null;
}

/** An origin as the leads' and candidatures' columns keep it: what is unknown is null, never ''. */
export const originColumns = (origin: Origin | undefined) => ({
	sourcePage: origin?.sourcePage || null,
	referrerHost: origin?.referrerHost || null,
	utmSource: origin?.utmSource || null,
	utmMedium: origin?.utmMedium || null,
	utmCampaign: origin?.utmCampaign || null
});

/** The process's tally: the server entry counts into it, the app writes it out (two bundles, one tally). */
export const audienceTally = () =>
	processWide<AudienceTally>('audience-tally').ensure(() => new AudienceTally());
