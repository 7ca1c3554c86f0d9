// Part "webhook" of `npm run bench` (issue "Training programme, part 2", point 9; issue "Measured right", points 1
// and 4): distinct signed Stripe events applied per second by the built server on PostgreSQL, 16 concurrent
// senders, against a bare node:http server (bench/bare-webhook.mjs) that verifies each signature with the official
// package, inserts one row and answers the same bytes as the app, under the same load generator in the same run:
// the median ratio of 7 back-to-back pairs of rounds, each pair's order alternating.
// Also printed, to say where the time goes: the same verification and insert in this process, with no HTTP at all.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import Stripe from 'stripe';
import { Pool } from 'undici';
import { fmt, freePort, median, pairedRatio, rawResponse, startServer, withBenchDatabase } from './lib.mjs';

const CONCURRENCY = 16;
const EVENTS = 800;
const ROUNDS = 7;
const CANDIDATURES = 100;
const secret = `whsec_bench_${randomBytes(12).toString('hex')}`;
const stripe = new Stripe('sk_test_bench');

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** `total` tasks with `concurrency` workers (a task answering false failed); per second, latency percentiles (ms). */
async function run(total, concurrency, task) {
	const latencies = [];
	let failures = 0;
	let next = 0;
	const worker = async () => {
		while (next < total) {
			const i = next++;
			const start = performance.now();
			if ((await task(i)) === false) failures++;
			latencies.push(performance.now() - start);
		}
	};
	const started = performance.now();
	await Promise.all(Array.from({ length: concurrency }, worker));
	const seconds = (performance.now() - started) / 1000;
	latencies.sort((a, b) => a - b);
	return {
		rps: total / seconds,
		p50: percentile(latencies, 0.5),
		p99: percentile(latencies, 0.99),
		failures
	};
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

const probeRequest = ({ payload, header }) => ({
	method: 'POST',
	headers: { 'content-type': 'application/json', 'stripe-signature': header },
	body: payload
});

/** Keep-alive connections to `base`; `event` answers whether the webhook said 200 (the body read to the end). */
function sender(base) {
	const pool = new Pool(base, { connections: CONCURRENCY, pipelining: 1 });
	return {
		event: async (signed) => {
			const { statusCode, body } = await pool.request({
				path: '/api/payments/webhook',
				...probeRequest(signed)
			});
			for await (const _ of body); // read to the end
			return statusCode === 200;
		},
		close: () => pool.close()
	};
}

async function startBareWebhook(databaseUrl, answer) {
	const port = await freePort();
	const encoded = JSON.stringify({ ...answer, body: answer.body.toString('base64') });
	const child = spawn(
		process.execPath,
		['bench/bare-webhook.mjs', String(port), databaseUrl, secret, encoded],
		{ stdio: ['ignore', 'pipe', 'inherit'] }
	);
	await new Promise((resolve) => child.stdout.once('data', resolve));
	return {
		url: `http://127.0.0.1:${port}`,
		stop: () => new Promise((r) => (child.on('exit', r), child.kill('SIGTERM')))
	};
}

export async function benchWebhook() {
	await withBenchDatabase('webhook', measure);
}

async function measure(databaseUrl) {
	const url = new URL(databaseUrl);
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

		// The bare server, checked first: it must answer byte for byte what the app answered to an event.
		await db`create table bench_events (id text primary key)`;
		const [probe] = events(ids, 'probe');
		const appAnswer = await rawResponse(`${server.url}/api/payments/webhook`, {}, probeRequest(probe));
		if (appAnswer.status !== 200) throw new Error(`the app answered ${appAnswer.status} to the probe`);
		const bare = await startBareWebhook(url.href, appAnswer);
		const served = [];
		const viaHttp = [];
		let ratio = null;
		try {
			const [bareProbe] = events(ids, 'bareprobe');
			const bareAnswer = await rawResponse(`${bare.url}/api/payments/webhook`, {}, probeRequest(bareProbe));
			if (bareAnswer.status !== appAnswer.status || !bareAnswer.body.equals(appAnswer.body))
				throw new Error('the webhook baseline does not answer what the app answered');
			// The server: every event is verified, recorded and applied (a membership row per subscription). Rounds in
			// back-to-back pairs (lib.mjs pairedRatio), as the page figures are.
			const appSend = sender(server.url);
			const bareSend = sender(bare.url);
			const round = async (send, prefix) => {
				const batch = events(ids, prefix);
				return run(batch.length, CONCURRENCY, (i) => send.event(batch[i]));
			};
			await round(appSend, 'warm');
			await round(bareSend, 'barewarm');
			let n = 0;
			const paired = await pairedRatio(
				(send) => round(send, `${send === appSend ? 'srv' : 'bare'}${n++}`),
				appSend,
				bareSend,
				ROUNDS
			);
			ratio = paired.ratio;
			served.push(...paired.firstRounds);
			viaHttp.push(...paired.secondRounds);
			await appSend.close();
			await bareSend.close();
		} finally {
			await bare.stop();
		}

		// Where the rest goes: verification and insert with no HTTP, in this process.
		const localEvents = events(ids, 'local');
		const inProcess = await run(localEvents.length, CONCURRENCY, async (i) => {
			const event = await stripe.webhooks.constructEventAsync(
				localEvents[i].payload,
				localEvents[i].header,
				secret
			);
			await db`insert into bench_events (id) values (${event.id})`;
		});

		const [{ applied }] =
			await db`select count(*)::int as applied from memberships where stripe_subscription_id like 'sub_srv%'`;
		if (applied !== EVENTS * ROUNDS) throw new Error(`${applied} of ${EVENTS * ROUNDS} events applied`);
		const failures = [...served, ...viaHttp].reduce((sum, r) => sum + r.failures, 0);
		const middle = (rounds, key) => median(rounds.map((r) => r[key]));
		console.log(
			`webhook.applied_ratio ${failures ? `none (${failures} non-200 answers)` : fmt(ratio)} (server ${fmt(middle(served, 'rps'), 0)} events/s, p50 ${fmt(middle(served, 'p50'))} ms, p99 ${fmt(middle(served, 'p99'))} ms; bare server verify + insert, same answer bytes, ${fmt(middle(viaHttp, 'rps'), 0)}/s, p50 ${fmt(middle(viaHttp, 'p50'))} ms, p99 ${fmt(middle(viaHttp, 'p99'))} ms; median of ${ROUNDS} pairs of rounds; goal ≥ 0.5; ${EVENTS} distinct events a round, ${CONCURRENCY} senders, PostgreSQL)`
		);
		console.log(
			`webhook.in_process ${fmt(middle(served, 'rps') / inProcess.rps)} (the same verify + insert without HTTP, in the load generator's process: ${fmt(inProcess.rps, 0)}/s, p50 ${fmt(inProcess.p50)} ms)`
		);
	} finally {
		await db.end();
		await server.stop();
	}
}
