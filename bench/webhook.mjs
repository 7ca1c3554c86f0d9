// Part "webhook" of `npm run bench` (issue "Training programme, part 2", point 9): distinct signed Stripe events
// applied per second by the built server on PostgreSQL, 16 concurrent senders, against a bare script doing the
// same number of signature verifications (the official package's constructEventAsync) and one insert each, with
// the same concurrency, in the same run.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import Stripe from 'stripe';
import { Pool } from 'undici';
import { fmt, startServer } from './lib.mjs';

const CONCURRENCY = 16;
const EVENTS = 1500;
const CANDIDATURES = 100;
const secret = `whsec_bench_${randomBytes(12).toString('hex')}`;
const stripe = new Stripe('sk_test_bench');

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** `total` tasks with `concurrency` workers; requests per second and latency percentiles (ms). */
async function run(total, concurrency, task) {
	const latencies = [];
	let next = 0;
	const worker = async () => {
		while (next < total) {
			const i = next++;
			const start = performance.now();
			await task(i);
			latencies.push(performance.now() - start);
		}
	};
	const started = performance.now();
	await Promise.all(Array.from({ length: concurrency }, worker));
	const seconds = (performance.now() - started) / 1000;
	latencies.sort((a, b) => a - b);
	return { rps: total / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

/** One `customer.subscription.updated` per distinct subscription, each naming one of our candidatures. */
function events(candidatureIds, prefix) {
	const now = Math.floor(Date.now() / 1000);
	return Array.from({ length: EVENTS }, (_, i) => {
		const payload = JSON.stringify({
			id: `evt_${prefix}_${i}`,
			object: 'event',
			type: 'customer.subscription.updated',
			created: now,
			livemode: false,
			data: {
				object: {
					id: `sub_${prefix}_${i}`,
					object: 'subscription',
					status: 'active',
					customer: `cus_${prefix}_${i}`,
					metadata: { candidatureId: candidatureIds[i % candidatureIds.length] },
					items: { object: 'list', data: [{ current_period_end: now + 30 * 86400 }] }
				}
			}
		});
		return { payload, header: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
	});
}

export async function benchWebhook() {
	const adminUrl =
		process.env.BENCH_DATABASE_URL ??
		process.env.DATABASE_URL ??
		'postgres://postgres@127.0.0.1:5432/postgres';
	const name = `atelier_bench_${randomBytes(4).toString('hex')}`;
	const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
	try {
		await admin.unsafe(`create database ${name}`);
	} catch (error) {
		console.log(
			`webhook.skipped (no PostgreSQL at ${adminUrl.replace(/\/\/[^@]*@/, '//***@')}: ${error.message})`
		);
		await admin.end();
		return;
	}
	const url = new URL(adminUrl);
	url.pathname = `/${name}`;
	const server = await startServer({
		DATABASE_URL: url.href,
		STRIPE_SECRET_KEY: 'sk_test_bench',
		STRIPE_WEBHOOK_SECRET: secret,
		STRIPE_PRICE_ID: 'price_bench',
		STRIPE_API_URL: 'http://127.0.0.1:9'
	});
	const db = postgres(url.href, { max: CONCURRENCY, onnotice: () => {} });
	try {
		const ids = (
			await db`
				insert into candidatures (status, first_name, last_name, email, phone, postal_code, city, trade, company,
					siret, years_experience, team_size, goals, presence, hours_per_week, motivation, consent_at)
				select 'approved', 'Bench', 'Mark', 'bench' || g || '@exemple.fr', '+33600000000', '69000', 'Lyon', 'macon',
					'Bench', '73282932000074', 1, 1, '["demandes"]', '["aucune"]', 1, repeat('x', 60), now()
				from generate_series(1, ${CANDIDATURES}) g
				returning id`
		).map((r) => r.id);

		// The server: every event is verified, recorded and applied (a membership row per subscription).
		const pool = new Pool(server.url, { connections: CONCURRENCY, pipelining: 1 });
		const send = async ({ payload, header }) => {
			const { statusCode, body } = await pool.request({
				path: '/api/payments/webhook',
				method: 'POST',
				headers: { 'content-type': 'application/json', 'stripe-signature': header },
				body: payload
			});
			for await (const _ of body); // read to the end
			if (statusCode !== 200) throw new Error(`webhook answered ${statusCode}`);
		};
		const warmup = events(ids, 'warm').slice(0, 100);
		await run(warmup.length, CONCURRENCY, (i) => send(warmup[i]));
		const serverEvents = events(ids, 'srv');
		const served = await run(serverEvents.length, CONCURRENCY, (i) => send(serverEvents[i]));
		await pool.close();

		// The bare script: the same verification and one insert per event, nothing else.
		await db`create table bench_events (id text primary key)`;
		const bareEvents = events(ids, 'bare');
		const bare = await run(bareEvents.length, CONCURRENCY, async (i) => {
			const event = await stripe.webhooks.constructEventAsync(
				bareEvents[i].payload,
				bareEvents[i].header,
				secret
			);
			await db`insert into bench_events (id) values (${event.id})`;
		});

		const [{ applied }] =
			await db`select count(*)::int as applied from memberships where stripe_subscription_id like 'sub_srv_%'`;
		if (applied !== EVENTS) throw new Error(`${applied} of ${EVENTS} events applied`);
		console.log(
			`webhook.applied_ratio ${fmt(served.rps / bare.rps)} (server ${fmt(served.rps, 0)} events/s, p50 ${fmt(served.p50)} ms, p99 ${fmt(served.p99)} ms; bare verify + insert ${fmt(bare.rps, 0)}/s, p50 ${fmt(bare.p50)} ms, p99 ${fmt(bare.p99)} ms; ${EVENTS} distinct events, ${CONCURRENCY} senders, PostgreSQL)`
		);
	} finally {
		await db.end();
		await server.stop();
		await admin.unsafe(`drop database if exists ${name} with (force)`);
		await admin.end();
	}
}
