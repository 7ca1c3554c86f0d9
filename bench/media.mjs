// Part "media" of `npm run bench` (issue "Learning, part 2", point 5): 16 members downloading a 100 MB lesson video
// at once, as players ask for it (`Range: bytes=0-`, answered 206), through the members' media route — which
// checks the session and the module on every request — against bare node:http servers sending the same file from
// the same disk with the same range handling, in the same run. The baselines are checked first: same status, same
// bytes, for three ranges. Figures: throughput (MB/s, median of paired rounds, their ratio) and how much the
// server's RSS rose while it served (sampled every 50 ms).
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import { fmt, median, rssOf, signedInAdmin, startServer, uploadCourseFile } from './lib.mjs';

const ADMIN = { name: 'Bench', email: 'bench@exemple.fr', password: 'une phrase de passe solide' };
const VIDEO_BYTES = 100 * 1024 * 1024;
const CLIENTS = 16;
const CHUNK = 8 * 1024 * 1024;
const RANGE = 'bytes=0-';

/** The fixture's 12 s MP4 with a `free` box making it 100 MB: a whole, valid file players skip through. */
function lessonOf(size) {
	const lesson = readFileSync('tests/fixtures/media/lesson.mp4');
	const free = Buffer.alloc(size - lesson.length);
	free.writeUInt32BE(free.length, 0);
	free.write('free', 4, 'latin1');
	return Buffer.concat([lesson, free]);
}

/**
 * What the baselines do: the file from disk, one range or the whole. `pipe`: fs.createReadStream piped to the
 * response, the usual way; `buffers`: two buffers read into and written in turn, each reused once the socket has
 * taken it — what the server entry does (src/server/course-media.ts), so the ceiling it must be compared with.
 */
function bareServer(file, how) {
	const size = statSync(file).size;
	return http.createServer(async (req, res) => {
		const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
		const start = match ? Number(match[1]) : 0;
		const end = match && match[2] ? Number(match[2]) : size - 1;
		res.writeHead(match ? 206 : 200, {
			'content-type': 'video/mp4',
			'content-length': String(end - start + 1),
			'accept-ranges': 'bytes',
			...(match ? { 'content-range': `bytes ${start}-${end}/${size}` } : {})
		});
		if (how === 'pipe') return void pipeline(createReadStream(file, { start, end }), res).catch(() => {});
		const handle = await open(file, 'r');
		try {
			const buffers = [Buffer.allocUnsafeSlow(65536), Buffer.allocUnsafeSlow(65536)];
			let previous = Promise.resolve();
			for (let position = start, turn = 0; position <= end && !res.destroyed; turn++) {
				const buffer = buffers[turn % 2];
				const { bytesRead } = await handle.read(buffer, 0, Math.min(65536, end - position + 1), position);
				position += bytesRead;
				await previous;
				previous = new Promise((resolve, reject) =>
					res.write(buffer.subarray(0, bytesRead), (error) => (error ? reject(error) : resolve()))
				);
			}
			await previous;
			res.end();
		} catch {
			res.destroy();
		} finally {
			await handle.close();
		}
	});
}

/** CLIENTS downloads at once of `target` from `base`; every byte read. Bytes per second over the slowest one. */
async function round(base, target, headers) {
	const pool = new Pool(base, { connections: CLIENTS, pipelining: 1 });
	const started = performance.now();
	let bytes = 0;
	const statuses = new Set();
	await Promise.all(
		Array.from({ length: CLIENTS }, async () => {
			const { statusCode, body } = await pool.request({
				path: target,
				method: 'GET',
				headers: { ...headers, range: RANGE }
			});
			statuses.add(statusCode);
			for await (const chunk of body) bytes += chunk.length;
		})
	);
	const seconds = (performance.now() - started) / 1000;
	await pool.close();
	return { mbps: bytes / seconds / 1024 / 1024, bytes, statuses: [...statuses] };
}

async function digestOf(url, headers, range) {
	const response = await fetch(url, { headers: { ...headers, range } });
	const hash = createHash('sha256');
	for await (const chunk of response.body) hash.update(chunk);
	return { status: response.status, length: response.headers.get('content-length'), sha: hash.digest('hex') };
}

/** A signed-in admin's cookie, a published module whose video went in as the editor sends it (tus, 8 MB a PATCH). */
async function lessonOnServer(server) {
	const cookie = await signedInAdmin(server, ADMIN);
	const headers = { cookie };
	const video = lessonOf(VIDEO_BYTES);
	const stored = await uploadCourseFile(server, cookie, {
		kind: 'video',
		name: 'lecon.mp4',
		bytes: video,
		chunk: CHUNK
	});
	const module = await fetch(`${server.url}/api/admin/modules`, {
		method: 'POST',
		headers: { ...headers, 'content-type': 'application/json', origin: server.url },
		body: JSON.stringify({ title: 'Vidéo', slug: 'video', published: true, video: stored.value })
	});
	if (module.status !== 201) throw new Error(`module answered ${module.status}`);
	return { headers, objectPath: stored.value.slice('storage:'.length) };
}

export async function benchMedia() {
	const server = await startServer();
	const bares = [];
	try {
		const { headers, objectPath } = await lessonOnServer(server);
		const target = `/cours/media/${objectPath}`;

		// The baselines send the very file the server stores, from the same disk; first, the same bytes.
		const file = path.join(server.dataDir, 'storage', 'private-gallery', objectPath);
		const bareUrls = {};
		for (const how of ['buffers', 'pipe']) {
			const bare = bareServer(file, how);
			bares.push(bare);
			await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
			bareUrls[how] = `http://127.0.0.1:${bare.address().port}`;
		}
		for (const range of [RANGE, 'bytes=1000000-2000000', `bytes=${VIDEO_BYTES - 5000}-`]) {
			const answers = [
				await digestOf(`${server.url}${target}`, headers, range),
				...(await Promise.all(Object.values(bareUrls).map((url) => digestOf(`${url}/`, {}, range))))
			];
			if (answers.some((a) => a.status !== 206 || a.sha !== answers[0].sha || a.length !== answers[0].length))
				throw new Error(`a baseline does not send the same bytes: ${JSON.stringify(answers)}`);
		}

		// Warm all three, then rounds in alternating order; the server's RSS sampled throughout.
		await round(server.url, target, headers);
		for (const url of Object.values(bareUrls)) await round(url, '/', {});
		const before = rssOf(server.child.pid);
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.child.pid))), 50);
		const rounds = { ours: [], buffers: [], pipe: [] };
		for (let i = 0; i < 6; i++) {
			const order = i % 2 === 0 ? ['ours', 'buffers', 'pipe'] : ['pipe', 'buffers', 'ours'];
			for (const who of order)
				rounds[who].push(
					who === 'ours' ? await round(server.url, target, headers) : await round(bareUrls[who], '/', {})
				);
		}
		clearInterval(sampler);
		const statuses = new Set(Object.values(rounds).flatMap((list) => list.flatMap((r) => r.statuses)));
		if ([...statuses].some((s) => s !== 206)) throw new Error(`a round answered ${[...statuses]}`);
		const mbps = (list) => median(list.map((r) => r.mbps));
		const ratio = (base) => median(rounds.ours.map((r, i) => r.mbps / rounds[base][i].mbps));
		console.log(
			`media.video_100mb_x16.throughput_mb_s ${fmt(mbps(rounds.ours), 0)} (bare node:http with the same two-buffer send ${fmt(mbps(rounds.buffers), 0)}: ratio ${fmt(ratio('buffers'))}, target ≥ 0.80; bare node:http piping fs.createReadStream ${fmt(mbps(rounds.pipe), 0)}: ratio ${fmt(ratio('pipe'))})`
		);
		console.log(
			`media.video_100mb_x16.rss_rise_mb ${fmt((peak - before) / 1024 / 1024, 1)} (before ${fmt(before / 1024 / 1024, 0)} MB, peak ${fmt(peak / 1024 / 1024, 0)} MB; target ≤ 50)`
		);
	} finally {
		for (const bare of bares) bare.close();
		await server.stop();
	}
}
