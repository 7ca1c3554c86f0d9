/**
 * Audience measurement inside the server, without a cookie or a script (issue "Insights", point 1), on the method
 * of Plausible: a page answered 200 to a person is counted with its day, path, the host that sent the visitor
 * (never the full referrer, never our own host), its utm_source / utm_medium / utm_campaign and a device class.
 * A visitor is told apart for one day only, by a hash of their address and browser salted with a random value
 * that lives in memory, changes every day and is never written anywhere: the next day nothing links them.
 *
 * What is never counted: a bot (isbot's maintained list, or no User-Agent), a prefetch (`Sec-Purpose`), a HEAD, an
 * asset, the admin, the members' area and the API, anything but a 200 HTML page, and a browser that sends
 * `Sec-GPC: 1`.
 *
 * The tally is kept in memory, process-wide (the server entry counts, the app writes: process-wide.js), and written
 * to the database in one statement every few seconds (index.ts). A crash loses at most those seconds' visits.
 * Nothing here touches the database: the server entry bundles it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isbot } from 'isbot';
import { setBounded } from '../../bounded-map.js';
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

/** Paths never counted: the admin, the members' area, the sign-in pages, the API, assets and health probes. */
const NOT_COUNTED =
	/^\/(?:admin|api|_app|storage|login|logout|register|setup-admin|mot-de-passe|profil|cours|dashboard|bilan|aide|healthz|readyz)(?:\/|$)/;

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

/** Whether this answer is a person's page view that may be counted. */
export function isCountable(request: CountableRequest): boolean {
	if (request.method !== 'GET' || request.status !== 200) return false;
	if (!request.contentType?.startsWith('text/html')) return false;
	const { headers } = request;
	if (headers['sec-gpc'] !== undefined && header(headers['sec-gpc']).trim() === '1') return false;
	// Chromium's prerender and prefetch say `Sec-Purpose: prefetch` (`;prerender`); older ones `Purpose`.
	if (
		(headers['sec-purpose'] !== undefined || headers['purpose'] !== undefined) &&
		/prefetch|prerender/i.test(header(headers['sec-purpose']) + header(headers['purpose']))
	)
		return false;
	const agent = header(headers['user-agent']);
	if (!agent || agentOf(agent).bot) return false;
	const path = pathOf(request.url);
	return path !== null && !NOT_COUNTED.test(path);
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

/** The path alone (no query), bounded; null when it is not one a page has. */
function pathOf(url: string): string | null {
	const path = url.split('?')[0]!;
	if (!path.startsWith('/') || path.length > 200 || path.includes('\0')) return null;
	return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

const FIELD_MAX = 100;
/** Lower-cased, trimmed, without control characters, at most 100 characters. */
const clean = (value: string | null | undefined) =>
	[...(value ?? '').trim().toLowerCase()]
		.filter((character) => character >= ' ')
		.join('')
		.slice(0, FIELD_MAX);

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

/** Counts waiting to be written: views and new visitors per row, new visitors per day, events per day. */
export interface PendingCounts {
	rows: Map<string, { views: number; visitors: number }>;
	days: Map<string, number>;
	/** `day\u0001kind` → how many. */
	events: Map<string, number>;
}

/** Steps of a journey that no table keeps, counted per day. */
export type AudienceEvent = 'candidature-draft-started';

/** Past this many visitors in a day (per instance), new ones are counted as views only: memory stays bounded. */
const MAX_VISITORS_A_DAY = 50_000;
/**
 * Past this many distinct rows in a day (per instance), a new page/source/campaign combination is counted under
 * the source « (autres) »: the Referer and the utm fields are whatever a client sends, and an invented value per
 * request must not become a row per request in the database.
 */
const MAX_ROWS_A_DAY = 20_000;
const OTHER_SOURCES: Source = { referrerHost: '(autres)', utmSource: '', utmMedium: '', utmCampaign: '' };

/**
 * The day's tally of one process. `count` is called by the server entry as each answer ends; `drain` by the app
 * every few seconds, which writes what it returns. The salt and the visitors seen today are in memory only, and
 * forgotten when the day changes.
 */
export class AudienceTally {
	private day = '';
	private salt = Buffer.alloc(0);
	/** Visitors seen today (their hashes), and the rows each was already counted a visitor of. */
	private seen = new Map<string, Set<string>>();
	/** Where each visitor of today first came from: what a lead or candidature sent later is attributed to. */
	private landings = new Map<string, Source & { path: string }>();
	private pending: PendingCounts = { rows: new Map(), days: new Map(), events: new Map() };
	/** Every row counted today, to bound their number (MAX_ROWS_A_DAY). */
	private rowsToday = new Set<string>();

	constructor(private readonly now: () => Date = () => new Date()) {}

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
		if (!isCountable(request)) return false;
		const agent = header(request.headers['user-agent']);
		const visitor = this.visitorOf(request.address, agent);
		const referer = request.headers.referer;
		const source: Source = {
			referrerHost: referer ? referrerHostOf(header(referer), ownHost) : '',
			...(request.url.includes('?') ? campaignOf(request.url) : NO_CAMPAIGN)
		};
		const visit: Visit = {
			day: this.day,
			path: pathOf(request.url)!,
			device: agentOf(agent).device,
			...source
		};
		let key = keyOf(visit);
		if (!this.rowsToday.has(key) && this.rowsToday.size >= MAX_ROWS_A_DAY)
			key = keyOf({ ...visit, ...OTHER_SOURCES });
		this.rowsToday.add(key);
		const row = this.pending.rows.get(key);
		const counted = row ?? { views: 0, visitors: 0 };
		counted.views++;
		let rowsOfVisitor = this.seen.get(visitor);
		if (!rowsOfVisitor && this.seen.size < MAX_VISITORS_A_DAY) {
			rowsOfVisitor = new Set();
			this.seen.set(visitor, rowsOfVisitor);
			this.pending.days.set(this.day, (this.pending.days.get(this.day) ?? 0) + 1);
		}
		if (rowsOfVisitor && !rowsOfVisitor.has(key)) {
			rowsOfVisitor.add(key);
			counted.visitors++;
		}
		this.pending.rows.set(key, counted);
		// The first page of the day, or the first that came from another site or a campaign, is the landing.
		const landing = this.landings.get(visitor);
		const fromOutside = source.referrerHost || source.utmSource || source.utmCampaign;
		if (rowsOfVisitor && (!landing || (fromOutside && !landing.referrerHost && !landing.utmSource)))
			this.landings.set(visitor, { ...source, path: visit.path });
		return true;
	}

	/** Where this visitor came from today, when this process saw them land. */
	landingOf(address: string, agent: string): (Source & { path: string }) | null {
		return this.landings.get(this.visitorOf(address, agent)) ?? null;
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
			const current = this.pending.rows.get(key) ?? { views: 0, visitors: 0 };
			this.pending.rows.set(key, {
				views: current.views + row.views,
				visitors: current.visitors + row.visitors
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
		this.landings = new Map();
		this.rowsToday = new Set();
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
