// Part "leads": what keeping each lead on disk costs (issue "Durable and upgradable", point 1). The embedded
// database fsyncs every commit; the same build with its DATA_DIR on a memory file system (/dev/shm, where an fsync
// costs nothing) is the baseline, in the same run, under the same load: the ratio is the price of durability.
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { fmt, startServer } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_LEADS_SECONDS ?? 10);
const CONCURRENCY = 4;

async function leadsPerSecond(url) {
	let sent = 0;
	let refused = 0;
	const end = Date.now() + SECONDS * 1000;
	const worker = async (w) => {
		while (Date.now() < end) {
			const n = sent + refused;
			const response = await fetch(`${url}/api/contact`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					// Each lead from its own address: the per-address limit is not what is measured.
					'x-forwarded-for': `10.${w}.${(n >> 8) & 255}.${n & 255}`
				},
				body: JSON.stringify({
					name: 'Banc',
					email: `banc-${w}-${n}@exemple.fr`,
					message: `Une demande pour mesurer ce que coûte l’écriture sur disque, numéro ${n}.`
				})
			});
			await response.arrayBuffer();
			if (response.status === 201) sent++;
			else refused++;
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
	return { perSecond: sent / SECONDS, refused };
}

export async function benchLeads() {
	const env = { ADDRESS_HEADER: 'X-Forwarded-For', XFF_DEPTH: '1' };
	const results = {};
	for (const [name, base] of [
		['disk', tmpdir()],
		['memory', '/dev/shm']
	]) {
		const dataDir = path.join(await mkdtemp(path.join(base, 'atelier-bench-leads-')), 'data');
		const server = await startServer({ ...env, DATA_DIR: dataDir });
		try {
			await leadsPerSecond(server.url); // warm-up round, not counted
			results[name] = await leadsPerSecond(server.url);
		} finally {
			await server.stop();
		}
	}
	const { disk, memory } = results;
	if (disk.refused || memory.refused) {
		console.log(`leads: ${disk.refused + memory.refused} submissions refused, no ratio`);
		return;
	}
	console.log(
		`leads (embedded database, each commit fsynced): ${fmt(disk.perSecond, 1)} leads/s on disk vs ` +
			`${fmt(memory.perSecond, 1)} with DATA_DIR in memory (/dev/shm, fsync free) = ` +
			`${fmt(disk.perSecond / memory.perSecond)}× — the price of durability, ${CONCURRENCY} clients, ${SECONDS} s each`
	);
}
