// Part "fleet" of `npm run bench` (issue « Many instances, one site »): what three instances on one PostgreSQL give
// against one, on this machine, for what a site does most — a cached page — and for what it must never lose — a lead
// (each one a transaction on the shared database). The same clients are spread over three instances or sent to one,
// in alternating rounds of the same run. On a 2-core machine three processes share two cores with the load
// generator and PostgreSQL: the figure says what a fleet costs or gives here, not on a bigger host.
import { Pool } from 'undici';
import { BROWSER_HEADERS, fmt, median, startServer, withBenchDatabase } from './lib.mjs';

const ROUNDS = 3;
const LEAD_SECONDS = Number(process.env.BENCH_FLEET_LEAD_SECONDS ?? 4);
const PAGE_REQUESTS = 12_000;

/** `total` GETs of `target`, `concurrency` keep-alive connections spread evenly over `bases`. */
async function pagesAcross(bases, target, { concurrency = 16, total = PAGE_REQUESTS } = {}) {
	const pools = bases.map((base) => new Pool(base, { connections: Math.ceil(concurrency / bases.length) }));
	let next = 0;
	let failures = 0;
	const worker = async (w) => {
		const pool = pools[w % pools.length];
		while (next < total) {
			next++;
			const { statusCode, body } = await pool.request({
				path: target,
				method: 'GET',
				headers: BROWSER_HEADERS
			});
			for await (const _ of body); // read to the end
			if (statusCode !== 200) failures++;
		}
	};
	const started = performance.now();
	await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
	const seconds = (performance.now() - started) / 1000;
	await Promise.all(pools.map((pool) => pool.close()));
	return { perSecond: total / seconds, failures };
}

let leadNumber = 0;
/** Leads sent for LEAD_SECONDS by 8 clients spread over `bases`, each lead from its own address. */
async function leadsAcross(bases, concurrency = 8) {
	let taken = 0;
	let refused = 0;
	const end = Date.now() + LEAD_SECONDS * 1000;
	const worker = async (w) => {
		const base = bases[w % bases.length];
		while (Date.now() < end) {
			const n = leadNumber++;
			const response = await fetch(`${base}/api/contact`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
				},
				body: JSON.stringify({
					name: 'Banc',
					email: `flotte-${n}@exemple.fr`,
					message: `Une demande pour mesurer une flotte d’instances, numéro ${n}.`
				})
			});
			await response.arrayBuffer();
			if (response.status === 201) taken++;
			else refused++;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
	return { perSecond: taken / LEAD_SECONDS, failures: refused };
}

/** Rounds of one instance and three, alternating which goes first; the ratio of the medians (three / one). */
async function threeAgainstOne(measure, one, three) {
	const ones = [];
	const threes = [];
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 ? [three, one] : [one, three];
		for (const bases of order) (bases === one ? ones : threes).push(await measure(bases));
	}
	const failures = [...ones, ...threes].reduce((sum, r) => sum + r.failures, 0);
	const oneRate = median(ones.map((r) => r.perSecond));
	const threeRate = median(threes.map((r) => r.perSecond));
	return { ratio: failures ? null : threeRate / oneRate, oneRate, threeRate, failures };
}

export async function benchFleet() {
	await withBenchDatabase('fleet', async (url) => {
		const env = {
			DATABASE_URL: url,
			SIGNING_SECRET: 'bench-fleet-shared-secret-of-at-least-32-chars',
			ADDRESS_HEADER: 'X-Forwarded-For',
			XFF_DEPTH: '1'
		};
		// The first alone: its start migrates the new database.
		const instances = [await startServer(env)];
		instances.push(...(await Promise.all([startServer(env), startServer(env)])));
		try {
			const bases = instances.map((instance) => instance.url);
			for (const base of bases) await fetch(`${base}/`);
			await pagesAcross(bases, '/'); // warm-up, not counted
			const pages = await threeAgainstOne((b) => pagesAcross(b, '/'), [bases[0]], bases);
			const leads = await threeAgainstOne((b) => leadsAcross(b), [bases[0]], bases);
			const text = (r) => (r.ratio === null ? `none (${r.failures} failed)` : fmt(r.ratio));
			console.log(
				`fleet.cached_home_3_vs_1 ${text(pages)} (three instances ${fmt(pages.threeRate, 0)} req/s vs one ${fmt(pages.oneRate, 0)} req/s; 16 clients, audience, access log on; on this machine's 2 cores)`
			);
			console.log(
				`fleet.leads_3_vs_1 ${text(leads)} (three instances ${fmt(leads.threeRate, 1)} leads/s vs one ${fmt(leads.oneRate, 1)} leads/s; 8 clients, one PostgreSQL; on this machine's 2 cores)`
			);
		} finally {
			await Promise.all(instances.map((instance) => instance.stop()));
		}
	});
}
