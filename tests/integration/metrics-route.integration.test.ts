/**
 * `GET /metrics` (issue « Many instances, one site », point 2): off without METRICS_TOKEN, only to its bearer token,
 * never cached; the text Prometheus reads, with what the parts say at the scrape (the database's probe, the last
 * backup) and what the process counted (requests by route id, 429s by lane).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isHttpError } from '@sveltejs/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRequest } from '../../src/lib/server/abuse/attempts';
import { useDepsForTests } from '../../src/lib/server/app';
import { loadConfig } from '../../src/lib/server/config';
import type { Db } from '../../src/lib/server/db';
import { backupRuns } from '../../src/lib/server/db/schema';
import { RateLimitedError } from '../../src/lib/server/errors';
import {
	enableMetrics,
	recordImageProxy,
	recordPageCache,
	recordRequest
} from '../../src/lib/server/metrics';
import { GET } from '../../src/routes/metrics/+server';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const TOKEN = 'jeton-de-metriques-'.padEnd(48, '7');
let database: TestDatabase;

const configWith = (env: Record<string, string>) =>
	loadConfig({
		DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atelier-metrics-')),
		SIGNING_SECRET: 's'.repeat(64),
		...env
	});

const scrape = (authorization?: string) =>
	GET({
		request: new Request('http://atelier.test/metrics', {
			headers: authorization ? { authorization } : {}
		})
	} as Parameters<typeof GET>[0]) as Promise<Response>;

/** A sample's value in the text format, by its name and labels as written. */
const sample = (text: string, series: string) => {
	const line = text.split('\n').find((row) => row.startsWith(`${series} `));
	return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
	database = await createTestDatabase();
	useDepsForTests({ db: database.db, config: configWith({ METRICS_TOKEN: TOKEN }) });
	enableMetrics(true);
});
afterAll(async () => {
	enableMetrics(false);
	useDepsForTests(null);
	await database.dispose();
});

describe('GET /metrics', () => {
	it('is not there without METRICS_TOKEN', async () => {
		useDepsForTests({ db: database.db, config: configWith({}) });
		try {
			const refused = await scrape(`Bearer ${TOKEN}`).then(
				() => null,
				(error: unknown) => error
			);
			expect(isHttpError(refused) && refused.status).toBe(404);
		} finally {
			useDepsForTests({ db: database.db, config: configWith({ METRICS_TOKEN: TOKEN }) });
		}
	});

	it('answers 401 to anyone without the bearer token, whatever they send', async () => {
		for (const authorization of [
			undefined,
			'Bearer ',
			`Bearer ${TOKEN.slice(0, -1)}`,
			`Bearer ${TOKEN}x`,
			`Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`,
			TOKEN
		]) {
			const answer = await scrape(authorization);
			expect(answer.status, String(authorization)).toBe(401);
			expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
			expect(answer.headers.get('cache-control')).toBe('no-store');
			expect(await answer.text()).not.toContain('atelier_');
		}
	});

	it('gives the token’s holder every series, never cached', async () => {
		const answer = await scrape(`Bearer ${TOKEN}`);
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
		expect(answer.headers.get('cache-control')).toBe('no-store');
		const text = await answer.text();
		for (const name of [
			'atelier_http_requests_total',
			'atelier_http_request_duration_seconds',
			'atelier_page_cache_total',
			'atelier_image_proxy_total',
			'atelier_emails_total',
			'atelier_rate_limited_total',
			'atelier_database_up',
			'atelier_database_probe_seconds',
			'atelier_backup_last_success_timestamp_seconds',
			'atelier_backup_last_size_bytes',
			'atelier_stripe_events_total',
			'atelier_data_dir_free_bytes',
			'atelier_data_dir_size_bytes',
			// The library's own: memory, event-loop lag, garbage collection, the start time (a restart is seen).
			'process_resident_memory_bytes',
			'nodejs_eventloop_lag_seconds',
			'nodejs_gc_duration_seconds',
			'process_start_time_seconds'
		])
			expect(text, name).toContain(`# TYPE ${name} `);
		expect(sample(text, 'atelier_database_up')).toBe(1);
		// DATA_DIR's filesystem, as the disk alert reads it.
		const free = sample(text, 'atelier_data_dir_free_bytes')!;
		expect(free).toBeGreaterThan(0);
		expect(free).toBeLessThanOrEqual(sample(text, 'atelier_data_dir_size_bytes')!);
	});

	it('records nothing while off: no METRICS_TOKEN, nobody to read them', async () => {
		enableMetrics(false);
		recordRequest('GET', '/eteint', 200, 0.01);
		enableMetrics(true);
		recordRequest('GET', '/allume', 200, 0.01);
		const text = await (await scrape(`Bearer ${TOKEN}`)).text();
		expect(text).not.toContain('route="/eteint"');
		expect(sample(text, 'atelier_http_requests_total{method="GET",route="/allume",status="200"}')).toBe(1);
	});

	it('counts requests by route id (an unknown method is « other »), and 429s by the lane that refused', async () => {
		recordRequest('GET', '/essai/[slug]', 200, 0.012);
		recordRequest('GET', '/essai/[slug]', 200, 0.3);
		recordRequest('BREW', '/essai/[slug]', 405, 0.001);
		const limit = { name: 'essai-metriques', max: 1, windowSeconds: 60 };
		await countRequest(database.db, limit, 'quelqu-un');
		await expect(countRequest(database.db, limit, 'quelqu-un')).rejects.toBeInstanceOf(RateLimitedError);
		const text = await (await scrape(`Bearer ${TOKEN}`)).text();
		expect(sample(text, 'atelier_http_requests_total{method="GET",route="/essai/[slug]",status="200"}')).toBe(
			2
		);
		expect(
			sample(text, 'atelier_http_requests_total{method="other",route="/essai/[slug]",status="405"}')
		).toBe(1);
		expect(
			sample(text, 'atelier_http_request_duration_seconds_bucket{le="0.025",route="/essai/[slug]"}')
		).toBe(2);
		expect(sample(text, 'atelier_http_request_duration_seconds_count{route="/essai/[slug]"}')).toBe(3);
		expect(sample(text, 'atelier_rate_limited_total{lane="essai-metriques"}')).toBe(1);
	});

	it('counts each page-cache result and image-proxy outcome once, however often it is scraped', async () => {
		const count = (text: string, series: string) => sample(text, series) ?? 0;
		const before = await (await scrape(`Bearer ${TOKEN}`)).text();
		recordPageCache('hit');
		recordPageCache('hit');
		recordPageCache('miss');
		recordImageProxy('fallback');
		const after = await (await scrape(`Bearer ${TOKEN}`)).text();
		const again = await (await scrape(`Bearer ${TOKEN}`)).text();
		for (const [series, added] of [
			['atelier_page_cache_total{result="hit"}', 2],
			['atelier_page_cache_total{result="miss"}', 1],
			['atelier_page_cache_total{result="stale"}', 0],
			['atelier_image_proxy_total{outcome="fallback"}', 1],
			['atelier_image_proxy_total{outcome="served"}', 0]
		] as const) {
			expect(count(after, series) - count(before, series), series).toBe(added);
			expect(count(again, series), `${series}, scraped again`).toBe(count(after, series));
			// Every series of the closed list is there from the first scrape, at 0 if nothing happened yet.
			expect(sample(before, series), series).not.toBeUndefined();
		}
	});

	it('writes each route’s times as Prometheus reads a histogram: cumulative buckets, +Inf, sum and count', async () => {
		for (const seconds of [0.001, 0.005, 0.0051, 0.3, 7, 12])
			recordRequest('POST', '/essai/lent', 201, seconds);
		const text = await (await scrape(`Bearer ${TOKEN}`)).text();
		const bucket = (le: string) =>
			sample(text, `atelier_http_request_duration_seconds_bucket{le="${le}",route="/essai/lent"}`);
		// A bound is « less than or equal »: 0.005 falls in the first bucket, 0.0051 in the next.
		expect([0.005, 0.01, 0.25, 0.5, 5, 10].map((le) => bucket(String(le)))).toEqual([2, 3, 3, 4, 4, 5]);
		expect(bucket('+Inf')).toBe(6);
		expect(sample(text, 'atelier_http_request_duration_seconds_sum{route="/essai/lent"}')).toBeCloseTo(
			19.3111,
			6
		);
		expect(sample(text, 'atelier_http_request_duration_seconds_count{route="/essai/lent"}')).toBe(6);
		expect(text).toContain('# TYPE atelier_http_request_duration_seconds histogram');
		expect(text).toContain('# TYPE atelier_http_requests_total counter');
		// The whole scrape as Prometheus' own checker reads it (CI installs promtool; elsewhere said and skipped).
		const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
		if (promtool.error) {
			expect(process.env.CI, 'promtool is not installed (apt-get install prometheus)').toBeFalsy();
			return void console.warn('skipped: promtool is not installed (apt-get install prometheus)');
		}
		// promtool's lint: the library's own names are its business; a malformed text is a failure whatever says it.
		expect(promtool.stderr + promtool.stdout).not.toMatch(/error|parse/i);
		expect(promtool.status === 0 || !/atelier_/.test(promtool.stdout + promtool.stderr)).toBe(true);
	});

	it('reads the last backup that went through, and says when the database does not answer', async () => {
		const before = await (await scrape(`Bearer ${TOKEN}`)).text();
		expect(sample(before, 'atelier_backup_last_success_timestamp_seconds')).toBe(0);
		const finishedAt = new Date('2026-11-27T03:00:04Z');
		await database.db.insert(backupRuns).values([
			{ trigger: 'schedule', status: 'ok', verified: 'read-back', bytes: 123_456, finishedAt },
			// A failed run, later, changes nothing: the alert is about the last one that went through.
			{ trigger: 'schedule', status: 'failed', finishedAt: new Date('2026-11-28T03:00:00Z'), error: 'disque' }
		]);
		const after = await (await scrape(`Bearer ${TOKEN}`)).text();
		expect(sample(after, 'atelier_backup_last_success_timestamp_seconds')).toBe(finishedAt.getTime() / 1000);
		expect(sample(after, 'atelier_backup_last_size_bytes')).toBe(123_456);

		// A database that fails every statement: down, and the backup's figures stay as last read.
		const broken = new Proxy(database.db, {
			get: (target, property) =>
				property === 'execute' || property === 'select'
					? () => {
							throw new Error('connection refused');
						}
					: Reflect.get(target, property)
		}) as Db;
		useDepsForTests({ db: broken, config: configWith({ METRICS_TOKEN: TOKEN }) });
		try {
			const down = await scrape(`Bearer ${TOKEN}`);
			expect(down.status).toBe(200);
			const text = await down.text();
			expect(sample(text, 'atelier_database_up')).toBe(0);
			expect(sample(text, 'atelier_backup_last_size_bytes')).toBe(123_456);
		} finally {
			useDepsForTests({ db: database.db, config: configWith({ METRICS_TOKEN: TOKEN }) });
		}
	});
});
