/**
 * What an operator watches, in the Prometheus format (`GET /metrics`, answered only when METRICS_TOKEN is set and
 * given as a bearer token). One registry for the process: the server entry (requests, the page cache's fast path)
 * and the SvelteKit app (everything else) are two bundles, so the registry lives process-wide (process-wide.js).
 *
 * Labels are bounded by construction: routes are SvelteKit's route ids (or the few names of what answers before
 * it), never raw paths; methods outside the standard ones are « other »; every other label is a closed list.
 * Recording is a map lookup and an addition: cheap beside an answer (`npm run bench pages` measures it).
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Metric } from 'prom-client';
import { processWide } from '../process-wide';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const REQUEST_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One route id's answers: how many by method and status, and how long they took (per bucket, not cumulative). */
interface RouteTally {
	answers: Map<string, Map<number, number>>;
	buckets: number[];
	sum: number;
	count: number;
}

type MetricValue = { labels: Record<string, string | number>; value: number; metricName?: string };

/**
 * Every answer counted by method, route id and status (`atelier_http_requests_total`) and timed by route id
 * (`atelier_http_request_duration_seconds`), kept as plain numbers and written out only when scraped. The access
 * log's listener records one per request, cached pages included; prom-client's own counter and histogram join and
 * hash their labels on every call, which was a tenth of a cached page's whole work under `perf`. The text is the
 * same as theirs (the same names, labels in the same order, cumulative buckets, `+Inf`, `_sum`, `_count`).
 */
class RequestTally {
	private readonly routes = new Map<string, RouteTally>();

	record(method: string, route: string, status: number, seconds: number): void {
		let tally = this.routes.get(route);
		if (!tally) {
			tally = { answers: new Map(), buckets: REQUEST_SECONDS_BUCKETS.map(() => 0), sum: 0, count: 0 };
			this.routes.set(route, tally);
		}
		let byStatus = tally.answers.get(method);
		if (!byStatus) tally.answers.set(method, (byStatus = new Map()));
		byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
		for (let i = 0; i < REQUEST_SECONDS_BUCKETS.length; i++)
			if (seconds <= REQUEST_SECONDS_BUCKETS[i]!) {
				tally.buckets[i]!++;
				break;
			}
		tally.sum += seconds;
		tally.count++;
	}

	private answersTotal(): MetricValue[] {
		const values: MetricValue[] = [];
		for (const [route, tally] of this.routes)
			for (const [method, byStatus] of tally.answers)
				for (const [status, value] of byStatus)
					values.push({ labels: { method, route, status: String(status) }, value });
		return values;
	}

	private durations(name: string): MetricValue[] {
		const values: MetricValue[] = [];
		for (const [route, tally] of this.routes) {
			let below = 0;
			REQUEST_SECONDS_BUCKETS.forEach((le, i) => {
				below += tally.buckets[i]!;
				values.push({ labels: { le, route }, value: below, metricName: `${name}_bucket` });
			});
			values.push(
				{ labels: { le: '+Inf', route }, value: tally.count, metricName: `${name}_bucket` },
				{ labels: { route }, value: tally.sum, metricName: `${name}_sum` },
				{ labels: { route }, value: tally.count, metricName: `${name}_count` }
			);
		}
		return values;
	}

	/** The two metrics as a prom-client registry reads one (`get()`: name, help, type, values; `reset()`). */
	metrics(): { name: string; get(): object; reset(): void }[] {
		const counter = {
			name: 'atelier_http_requests_total',
			help: 'HTTP requests answered, by method, route id and status.',
			type: 'counter',
			aggregator: 'sum'
		};
		const histogram = {
			name: 'atelier_http_request_duration_seconds',
			help: 'Time from a request to the end of its answer, by route id.',
			type: 'histogram',
			aggregator: 'sum'
		};
		const reset = () => this.routes.clear();
		return [
			{ ...counter, get: () => ({ ...counter, values: this.answersTotal() }), reset },
			{ ...histogram, get: () => ({ ...histogram, values: this.durations(histogram.name) }), reset }
		];
	}
}

/** `tally`'s metrics in `registry`, which reads them as it reads its own (registry.ts: `get()` and `type`). */
function registered(tally: RequestTally, registry: Registry): RequestTally {
	for (const metric of tally.metrics()) registry.registerMetric(metric as unknown as Metric);
	return tally;
}

/**
 * A counter of one label with a closed list of values, counted on every request (the page cache's results, the image
 * proxy's outcomes): counted in a plain record, added to prom-client's counter when scraped (its `collect`) — its
 * `inc` joins and hashes the labels on each call. Every value's series is there from the start, at 0
 * (withEveryClosedSeries says why).
 */
function countedOnScrape<V extends string>(
	config: { name: string; help: string; labelNames: [string]; registers: Registry[] },
	values: readonly V[]
): { add(value: V): void } {
	const [label] = config.labelNames;
	const pending = Object.fromEntries(values.map((value) => [value, 0])) as Record<V, number>;
	const counter = new Counter({
		...config,
		collect() {
			for (const value of values)
				if (pending[value] > 0) {
					this.inc({ [label]: value }, pending[value]);
					pending[value] = 0;
				}
		}
	});
	for (const value of values) counter.inc({ [label]: value }, 0);
	return { add: (value) => void pending[value]++ };
}

function makeMetrics() {
	const registry = new Registry();
	// Memory, event-loop lag, garbage collection, open handles, the process's start time (a restart is seen).
	collectDefaultMetrics({ register: registry });
	const registers = [registry];
	return {
		registry,
		requests: registered(new RequestTally(), registry),
		pageCache: countedOnScrape(
			{
				name: 'atelier_page_cache_total',
				help: 'Public pages asked of the page cache: hit, stale (served while refreshed) or miss.',
				labelNames: ['result'],
				registers
			},
			PAGE_CACHE_RESULTS
		),
		imageProxy: countedOnScrape(
			{
				name: 'atelier_image_proxy_total',
				help: 'Answers of /api/img: served, not_modified, fallback (the upstream failed: a stand-in), not_found.',
				labelNames: ['outcome'],
				registers
			},
			IMAGE_PROXY_OUTCOMES
		),
		emails: new Counter({
			name: 'atelier_emails_total',
			help: 'E-mails handed to the relay (sent) or not (failed).',
			labelNames: ['status'] as const,
			registers
		}),
		rateLimited: new Counter({
			name: 'atelier_rate_limited_total',
			help: 'Requests refused with 429, by the limit (lane) that refused them.',
			labelNames: ['lane'] as const,
			registers
		}),
		databaseUp: new Gauge({
			name: 'atelier_database_up',
			help: '1 when the database answered the scrape’s probe, 0 when it did not.',
			registers
		}),
		databaseProbeSeconds: new Gauge({
			name: 'atelier_database_probe_seconds',
			help: 'How long the scrape’s probe (select 1) took.',
			registers
		}),
		backupLastSuccess: new Gauge({
			name: 'atelier_backup_last_success_timestamp_seconds',
			help: 'When the last backup was made (Unix time), as the database records it; 0: never.',
			registers
		}),
		backupLastSize: new Gauge({
			name: 'atelier_backup_last_size_bytes',
			help: 'The size of the last backup made.',
			registers
		}),
		dataDirFree: new Gauge({
			name: 'atelier_data_dir_free_bytes',
			help: 'Free space (for this process) on the filesystem of DATA_DIR.',
			registers
		}),
		dataDirSize: new Gauge({
			name: 'atelier_data_dir_size_bytes',
			help: 'Size of the filesystem of DATA_DIR.',
			registers
		}),
		stripeEvents: new Counter({
			name: 'atelier_stripe_events_total',
			help: 'Stripe webhook deliveries: applied, duplicate, ignored, refused (no or a wrong signature), failed.',
			labelNames: ['outcome'] as const,
			registers
		})
	};
}

/**
 * Every series of a closed label list, at 0 from the start. A labelled counter is otherwise born at its first
 * increment, with the value 1 or more: `increase()` over a series that did not exist before is 0, so an alert on
 * the first failed e-mail (`increase(atelier_emails_total{status="failed"}[15m]) > 0`) missed it.
 */
function withEveryClosedSeries(m: ReturnType<typeof makeMetrics>) {
	for (const status of EMAIL_STATUSES) m.emails.inc({ status }, 0);
	for (const outcome of STRIPE_OUTCOMES) m.stripeEvents.inc({ outcome }, 0);
	return m;
}

type Metrics = ReturnType<typeof makeMetrics>;
const shared = processWide<Metrics>('metrics');
const metrics = (): Metrics => shared.ensure(() => withEveryClosedSeries(makeMetrics()));

/**
 * Off until the process is given a METRICS_TOKEN (nobody could read them): every `record…` is then one property
 * read, and no registry, event-loop monitor or GC observer is made. Set by the server entry (and by the app's init
 * hook, for `vite dev`) from the configuration.
 */
const state = processWide<{ on: boolean }>('metrics-state').ensure(() => ({ on: false }));
export function enableMetrics(on: boolean): void {
	state.on = on;
	if (on) metrics();
}

/** An answer ended (the request log's line): counted by method, route and status, its time observed. */
export function recordRequest(
	method: string | undefined,
	route: string,
	status: number,
	seconds: number
): void {
	if (state.on)
		metrics().requests.record(method && METHODS.has(method) ? method : 'other', route, status, seconds);
}

const PAGE_CACHE_RESULTS = ['hit', 'stale', 'miss'] as const;
export type PageCacheResult = (typeof PAGE_CACHE_RESULTS)[number];
export const recordPageCache = (result: PageCacheResult) =>
	void (state.on && metrics().pageCache.add(result));

const IMAGE_PROXY_OUTCOMES = ['served', 'not_modified', 'fallback', 'not_found'] as const;
export type ImageProxyOutcome = (typeof IMAGE_PROXY_OUTCOMES)[number];
export const recordImageProxy = (outcome: ImageProxyOutcome) =>
	void (state.on && metrics().imageProxy.add(outcome));

const EMAIL_STATUSES = ['sent', 'failed'] as const;
export const recordEmail = (status: (typeof EMAIL_STATUSES)[number]) =>
	void (state.on && metrics().emails.inc({ status }));

/** A 429: `lane` is the limit's name (a closed list: abuse/attempts.ts and the forms' limits). */
export const recordRateLimited = (lane: string) => void (state.on && metrics().rateLimited.inc({ lane }));

const STRIPE_OUTCOMES = ['applied', 'duplicate', 'ignored', 'refused', 'failed'] as const;
export type StripeOutcome = (typeof STRIPE_OUTCOMES)[number];
export const recordStripeEvent = (outcome: StripeOutcome) =>
	void (state.on && metrics().stripeEvents.inc({ outcome }));

/** What a scrape asks of the parts at that moment: read when the text is made, not kept up to date between. */
export interface ScrapeProbes {
	/** Resolves when the database answered; rejects otherwise. */
	pingDatabase(): Promise<void>;
	/** The last backup made, as recorded (null: none yet). */
	lastBackup(): Promise<{ at: Date; bytes: number } | null>;
	/** The filesystem DATA_DIR is on: its free and total bytes. */
	dataDirDisk(): Promise<{ free: number; size: number }>;
}

/** The text a scrape gets (and its content type), after asking the probes. A probe that fails says so in its gauge. */
export async function scrape(probes: ScrapeProbes): Promise<{ contentType: string; body: string }> {
	const m = metrics();
	const started = performance.now();
	try {
		await probes.pingDatabase();
		m.databaseUp.set(1);
	} catch {
		m.databaseUp.set(0);
	}
	m.databaseProbeSeconds.set((performance.now() - started) / 1000);
	const backup = await probes.lastBackup().catch(() => undefined);
	// Unknown (the database is down): the last value read stays, rather than a false « never ».
	if (backup !== undefined) {
		m.backupLastSuccess.set(backup ? backup.at.getTime() / 1000 : 0);
		m.backupLastSize.set(backup?.bytes ?? 0);
	}
	const disk = await probes.dataDirDisk().catch(() => null);
	if (disk) {
		m.dataDirFree.set(disk.free);
		m.dataDirSize.set(disk.size);
	}
	return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
