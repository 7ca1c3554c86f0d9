/**
 * Audience measurement inside the server, without a cookie or a script (issue "Insights", point 1), on the method
 * of Plausible: a page answered 200 to a person is counted with its day, path, the host that sent the visitor
 * (never the full referrer, never our own host), its utm_source / utm_medium / utm_campaign and a device class.
 * A visitor is told apart for one day only, by a hash of their address and browser salted with a random value
 * of that day, shared by every instance through the database and deleted with the day's hashes once the day has
 * ended (visits.ts): the next day nothing links them.
 *
 * What is never counted: a bot (isbot's maintained list, or no User-Agent), a prefetch (`Sec-Purpose`), a HEAD, an
 * asset, the admin, the members' area and the API, anything but an HTML page answered 200 (or 304: revalidated from
 * the browser's cache), and a browser that sends `Sec-GPC: 1`.
 *
 * The views are kept in memory, process-wide (the server entry counts, the app writes: process-wide.js), and the
 * writer tells their visitors apart and writes them every few seconds (visits.ts, index.ts). A crash loses at most
 * those seconds' visits. Nothing here touches the database: the server entry bundles it.
 */
import { isbot } from 'isbot';
import { setBounded } from '../../bounded-map.js';
import { isUncountedPath } from '../../pages/registry';
import { processWide } from '../../process-wide.js';

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
/** The User-Agent kept to tell a visitor apart: longer than any browser's (visitorHash reads no more). */
export const MAX_AGENT = 512;
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
export const sameSource = (a: Source, b: Source) =>
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

/** A visit's key: one row of the daily table. */
export const keyOf = (visit: Visit) =>
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

/** Counts to add to the daily tables: views, new visitors and visits begun per row, new visitors per day, events per day. */
export interface PendingCounts {
	rows: Map<string, { views: number; visitors: number; entries: number }>;
	days: Map<string, number>;
	/** `day\u0001path` → the page's new visitors: people, counted once a day on it whatever their visits' sources. */
	pages: Map<string, number>;
	/** `day\u0001kind` → how many. */
	events: Map<string, number>;
}

/** Steps of a journey that no table keeps, counted per day. */
export type AudienceEvent = 'candidature-draft-started';

/**
 * A person's page view as the server entry saw it. Who the person is — the day's salted hash of `address` and
 * `agent` — is worked out by the writer (visits.ts), which holds the day's salt shared by every instance: the address
 * and the browser string stay in this process's memory until the next write, a few seconds, and are never written.
 */
export interface Hit {
	day: string;
	address: string;
	agent: string;
	path: string;
	device: Device;
	/** Where this page was reached from: another site, a campaign, or nothing (a link of our own, typed). */
	from: Source;
	/** Views of this very page by this person from the same place, one after the other (a reload, a refresh). */
	views: number;
}

/** What the server entry counted since the last write. */
export interface Batch {
	hits: Hit[];
	/** Views past AUDIENCE_BOUNDS.pendingHits in one batch, per day: counted, not told apart. */
	overflow: Map<string, number>;
	/** `day\u0001kind` → how many. */
	events: Map<string, number>;
}

/**
 * The bounds, so that what anonymous clients send can never grow memory or the tables without limit. The paths are
 * the site's own (canonicalPath, and only 200 pages count), but the Referer and the utm fields are whatever a client
 * sends; the visitors are whoever asks.
 * - Hits: at most `pendingHits` views wait for the next write (a few seconds); past it, a view is counted under the
 *   page and source « (autres) », without its visitor.
 * - Rows (per instance and day): past `rows` distinct page/source/campaign/device rows, a new combination is counted
 *   under the source « (autres) » for its page; past `overflowRows` of those, under the page « (autres) » too.
 *   At most rows + overflowRows + 3 (one per device) rows a day per instance, whatever is sent.
 * - Visitors (per instance and day): past `visitors` new visitors, a new visitor's views are counted, not the visitor.
 * - Which rows each visitor was counted in (so a visitor counts once per row): at most `visitorRows` pairs a
 *   day per instance; past it, views only.
 * Measured with a flood of a million requests (audience.test.ts), every field a client chooses at its longest kept
 * (100 characters): what this process holds for the day stays under 64 MB, 20,002 rows.
 */
export const AUDIENCE_BOUNDS = {
	pendingHits: 100_000,
	rows: 20_000,
	overflowRows: 1_000,
	visitors: 50_000,
	visitorRows: 200_000
} as const;
export const OTHER_SOURCES: Source = {
	referrerHost: '(autres)',
	utmSource: '',
	utmMedium: '',
	utmCampaign: ''
};
export const OTHER_PAGES = '(autres)';
/** The row of the views a full batch could not keep (AUDIENCE_BOUNDS.pendingHits). */
export const overflowKey = (day: string) =>
	keyOf({ day, path: OTHER_PAGES, device: 'desktop', ...OTHER_SOURCES });

/**
 * The views of one process since the last write. `count` is called by the server entry as each answer ends; `drain`
 * by the app every few seconds, whose writer (visits.ts) tells the visitors apart and writes the counts.
 */
export class AudienceTally {
	private day = '';
	private pending: Batch = { hits: [], overflow: new Map(), events: new Map() };
	/**
	 * Each person's last view in this batch, with the URL and Referer it came with: the same view again (a reload,
	 * a monitor, a flood) adds to it rather than a hit of its own. It is told apart exactly as a new hit would be — a
	 * person's view repeated with nothing of theirs in between lands on the same row, begins no visit, and the person
	 * is already counted there (`attribute`) — and costs a lookup instead of an object kept until the write: at tens
	 * of thousands of views a second, those objects were most of a cached page's work (issue « Speed, part 2 »).
	 */
	private lastViews = new Map<string, { hit: Hit; url: string; referer: string | undefined }>();

	/** Milliseconds since the epoch: Date.now, unless a test gives its own clock. */
	private readonly clock: () => number;
	constructor(now?: () => Date) {
		this.clock = now ? () => now().getTime() : Date.now;
	}

	count(request: CountableRequest, ownHost: string): boolean {
		const path = countedPath(request);
		if (path === null) return false;
		const day = this.today();
		// Kept to what a browser sends (a few hundred characters): a client's 16 KB header is not held twice per view
		// (the hit and the key of its person) for the seconds until the write.
		const agent = header(request.headers['user-agent']).slice(0, MAX_AGENT);
		const referer = request.headers.referer === undefined ? undefined : header(request.headers.referer);
		const person = `${request.address}\0${agent}`;
		const last = this.lastViews.get(person);
		if (last && last.url === request.url && last.referer === referer && last.hit.day === day) {
			last.hit.views++;
			return true;
		}
		if (this.pending.hits.length >= AUDIENCE_BOUNDS.pendingHits) {
			this.pending.overflow.set(day, (this.pending.overflow.get(day) ?? 0) + 1);
			return true;
		}
		const hit: Hit = {
			day,
			address: request.address,
			agent,
			path,
			device: agentOf(agent).device,
			from: {
				referrerHost: referer ? referrerHostOf(referer, ownHost) : '',
				...(request.url.includes('?') ? campaignOf(request.url) : NO_CAMPAIGN)
			},
			views: 1
		};
		this.pending.hits.push(hit);
		setBounded(this.lastViews, person, { hit, url: request.url, referer }, AUDIENCE_BOUNDS.pendingHits);
		return true;
	}

	/** What was counted since the last drain; the tally starts the next batch empty. */
	drain(): Batch {
		const drained = this.pending;
		this.pending = { hits: [], overflow: new Map(), events: new Map() };
		this.lastViews = new Map();
		return drained;
	}

	/** A write that failed: its views go back before the newer ones, to be written with the next batch. */
	restore(batch: Batch): void {
		const room = Math.max(0, AUDIENCE_BOUNDS.pendingHits - this.pending.hits.length);
		const kept = room >= batch.hits.length ? batch.hits : batch.hits.slice(batch.hits.length - room);
		const { overflow, events } = this.pending;
		for (const hit of batch.hits.slice(0, batch.hits.length - kept.length))
			overflow.set(hit.day, (overflow.get(hit.day) ?? 0) + hit.views);
		this.pending.hits = [...kept, ...this.pending.hits];
		for (const [day, n] of batch.overflow) overflow.set(day, (overflow.get(day) ?? 0) + n);
		for (const [key, n] of batch.events) events.set(key, (events.get(key) ?? 0) + n);
	}

	/** One more of a step that no table keeps (a candidature draft started). */
	countEvent(kind: AudienceEvent): void {
		const key = `${this.today()}\u0001${kind}`;
		this.pending.events.set(key, (this.pending.events.get(key) ?? 0) + 1);
	}

	/** When the day was last read: formatting a date in Paris' time is slow, and a second late is close enough. */
	private dayReadAt = -Infinity;

	private today(): string {
		const now = this.clock();
		if (now - this.dayReadAt >= 1_000 || now < this.dayReadAt) {
			this.dayReadAt = now;
			this.day = dayOf(new Date(now));
		}
		return this.day;
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
