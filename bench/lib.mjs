// Shared pieces of the benchmarks: start the built server, a keep-alive load generator, percentiles, RSS.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import postgres from 'postgres';
import { Pool, request } from 'undici';

export async function freePort() {
	return new Promise((resolve) => {
		const s = createServer();
		s.listen(0, '127.0.0.1', () => {
			const { port } = s.address();
			s.close(() => resolve(port));
		});
	});
}

export async function startServer(env = {}) {
	const port = await freePort();
	const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-bench-'));
	const url = `http://127.0.0.1:${port}`;
	// BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (node --cpu-prof), to see
	// where a figure's time goes before changing anything.
	const profile = process.env.BENCH_CPU_PROF
		? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
		: [];
	// BENCH_NODE_FLAGS="--flag …": the server started with these V8 flags beside its own (src/server/heap.ts adds
	// only what is missing), to weigh a flag on the same build before putting it in heap.ts.
	const flags = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
	const child = spawn(process.execPath, [...profile, ...flags, 'build/server.js'], {
		env: {
			...process.env,
			DATABASE_URL: '',
			PORT: String(port),
			HOST: '127.0.0.1',
			ORIGIN: url,
			DATA_DIR: dataDir,
			...env
		},
		stdio: ['ignore', 'ignore', 'inherit']
	});
	// As long as a cold start takes on a loaded machine (the first start migrates and seeds the embedded database),
	// and no longer than the server lives: a server that exits, or is not up in time, is said, never waited past.
	const deadline = Date.now() + Number(process.env.BENCH_START_TIMEOUT_MS || 180_000);
	let exited = null;
	child.once('exit', (code, signal) => (exited = signal ?? code));
	for (;;) {
		try {
			if ((await fetch(`${url}/healthz`)).ok) break;
		} catch {
			// not up yet
		}
		if (exited !== null) throw new Error(`the server exited (${exited}) before it answered /healthz`);
		if (Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(
				`the server did not answer /healthz within ${(Number(process.env.BENCH_START_TIMEOUT_MS) || 180_000) / 1000} s (BENCH_START_TIMEOUT_MS)`
			);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	return {
		url,
		dataDir,
		child,
		stop: () => new Promise((r) => (child.on('exit', r), child.kill('SIGTERM')))
	};
}

/** Resident memory of a process, in bytes (Linux). */
export function rssOf(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** The most a process has held since it started (VmHWM: what `/usr/bin/time -v` prints as its maximum RSS). */
export function peakRssOf(pid) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/**
 * CPU time a process has used so far, every thread's, in nanoseconds (Linux's schedstat: the scheduler's own
 * accounting, not 10-ms ticks); null where /proc has no such file.
 */
export function cpuNanosecondsOf(pid) {
	try {
		let total = 0;
		for (const task of readdirSync(`/proc/${pid}/task`))
			total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
		return total;
	} catch {
		return null;
	}
}

/**
 * Waits until a server is idle — its start's housekeeping done (retention, reminders, the embedded database's
 * upkeep): under a tenth of a core for a whole second, or `limitMs` at most. A figure measured meanwhile is the
 * housekeeping's, not the page's.
 */
export async function settled(pid, limitMs = 180_000) {
	const deadline = Date.now() + limitMs;
	while (Date.now() < deadline) {
		const before = cpuNanosecondsOf(pid);
		await new Promise((resolve) => setTimeout(resolve, 1000));
		const after = cpuNanosecondsOf(pid);
		if (before === null || after === null || after - before < 100_000_000) return;
	}
}

/**
 * `total` GETs of `target` with `concurrency` keep-alive connections; every body is read to the end.
 * Returns requests per second and latency percentiles (ms).
 */
export async function load(base, target, { concurrency = 16, total = 2000, headers = {} } = {}) {
	const pool = new Pool(base, { connections: concurrency, pipelining: 1 });
	const latencies = [];
	let next = 0;
	let failures = 0;
	const worker = async () => {
		while (next < total) {
			next++;
			const start = performance.now();
			const { statusCode, body } = await pool.request({ path: target, method: 'GET', headers });
			for await (const _ of body); // read to the end
			if (statusCode !== 200) failures++;
			latencies.push(performance.now() - start);
		}
	};
	const started = performance.now();
	await Promise.all(Array.from({ length: concurrency }, worker));
	const seconds = (performance.now() - started) / 1000;
	await pool.close();
	latencies.sort((a, b) => a - b);
	const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
	return { rps: total / seconds, p50: at(0.5), p99: at(0.99), failures };
}

export const fmt = (n, digits = 2) => Number(n).toFixed(digits);
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * What a browser asks for: the page figures are measured compressed, as visitors get them, and as a person's visit
 * (a browser's User-Agent, HTML accepted), so that the audience counts each one as it counts a visitor's.
 */
export const BROWSER_HEADERS = {
	'accept-encoding': 'br, gzip',
	accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
	'user-agent':
		'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
};

/** Headers that belong to one connection or one moment, not to the response a baseline must repeat. */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * One response exactly as it crossed the wire: status, headers and the body's bytes as sent (still compressed:
 * undici's `request` does not decode, unlike fetch). `init` makes it another request than a GET (method, body).
 */
export async function rawResponse(url, headers = BROWSER_HEADERS, init = {}) {
	const response = await request(url, { headers, ...init });
	const body = Buffer.from(await response.body.arrayBuffer());
	const kept = Object.fromEntries(
		Object.entries(response.headers).filter(([name, value]) => !HOP_HEADERS.has(name) && value !== undefined)
	);
	return { status: response.statusCode, headers: kept, body };
}

/**
 * Requests in a round of a page figure. At ~30 000 requests a second, rounds of 3 000 (0.1 s) put two identical bare
 * servers anywhere between 0.6× and 1.8× of each other, and the median of seven pairs 0.1 away from 1.00; rounds of
 * 12 000 keep that median within a few hundredths.
 */
export const ROUND_REQUESTS = 12_000;

/**
 * `rounds` back-to-back pairs of `measure(first)` and `measure(second)`, each pair's order alternating; the ratio is
 * the median of the pairs' ratios (first / second): this machine's speed drifts by a third between rounds a few
 * seconds apart, and a pair measured back to back shares it.
 */
export async function pairedRatio(measure, first, second, rounds) {
	const firstRounds = [];
	const secondRounds = [];
	for (let round = 0; round < rounds; round++) {
		if (round % 2 === 0) {
			secondRounds.push(await measure(second));
			firstRounds.push(await measure(first));
		} else {
			firstRounds.push(await measure(first));
			secondRounds.push(await measure(second));
		}
	}
	const ratio = median(firstRounds.map((r, i) => r.rps / secondRounds[i].rps));
	return { ratio, firstRounds, secondRounds };
}

/**
 * A cached page of `server` against a bare node:http server sending the same bytes with the same headers, under
 * the same load generator, compressed as browsers ask. The baseline is checked before anything is measured
 * (same status, byte-for-byte the same body); a round with a non-2xx answer makes the figure null (no ratio).
 */
export async function againstBareServer(server, target, options = {}) {
	return versusBareServer(server, target, {
		headers: BROWSER_HEADERS,
		check: (app) => {
			if (app.headers['x-page-cache'] !== 'HIT') throw new Error(`${target} is not served from the cache`);
		},
		...options
	});
}

/**
 * `target` of `server` against a bare node:http server that sends what the app sent for it — the same status line,
 * the same headers (but the connection's own), byte for byte the same body — in its own process, under the same
 * load generator: the ceiling any answer of those bytes can reach on this machine. Rounds in alternating pairs
 * (pairedRatio); `control` measures two identical bare servers the same way (how far from 1.00 a ratio lands by
 * chance). A round with a non-2xx answer makes the figure null. `upstream` (a URL): the bare server fetches the bytes
 * from there for each answer, as a proxy must (startBareServer).
 */
export async function versusBareServer(
	server,
	target,
	{
		headers = {},
		check = () => {},
		warm = ROUND_REQUESTS,
		total = ROUND_REQUESTS,
		rounds = 7,
		control = false,
		readEachTime = false,
		upstream = null
	} = {}
) {
	const app = await rawResponse(server.url + target, headers);
	if (app.status !== 200) throw new Error(`${target} answered ${app.status}`);
	check(app);
	const file = path.join(server.dataDir, `bench-${target.replace(/\W+/g, '-')}.body`);
	writeFileSync(file, app.body);
	const bare = await startBareServer(file, app.headers, { readEachTime, upstream });
	try {
		const copy = await rawResponse(bare.url + target, headers);
		if (copy.status !== app.status || !copy.body.equals(app.body))
			throw new Error(`the baseline of ${target} does not send what the app sent`);
		const options = { headers };
		await load(bare.url, target, { ...options, total: warm });
		await load(server.url, target, { ...options, total: warm });
		// Each round also says what it cost its server: CPU per answer, from the scheduler's accounting of the
		// process (every thread: the collector's too). Steadier than requests a second on a machine whose load
		// generator shares the cores, and what a change to the answer's own work moves.
		const pids = new Map([
			[server.url, server.child.pid],
			[bare.url, bare.pid]
		]);
		const measured = async (url) => {
			const before = cpuNanosecondsOf(pids.get(url));
			const round = await load(url, target, { ...options, total });
			const after = cpuNanosecondsOf(pids.get(url));
			return { ...round, cpuUs: before === null || after === null ? null : (after - before) / total / 1000 };
		};
		const inPairs = (first, second) => pairedRatio(measured, first, second, rounds);
		const { ratio, firstRounds: appRounds, secondRounds: bareRounds } = await inPairs(server.url, bare.url);
		let noise = null;
		if (control) {
			const twin = await startBareServer(file, app.headers, { upstream });
			pids.set(twin.url, twin.pid);
			try {
				await load(twin.url, target, { ...options, total: warm });
				noise = (await inPairs(twin.url, bare.url)).ratio;
			} finally {
				await twin.stop();
			}
		}
		const failures = [...bareRounds, ...appRounds].reduce((sum, r) => sum + r.failures, 0);
		const bareRps = median(bareRounds.map((r) => r.rps));
		const appRps = median(appRounds.map((r) => r.rps));
		return {
			ratio: failures ? null : ratio,
			noise,
			failures,
			appRps,
			bareRps,
			appP50: median(appRounds.map((r) => r.p50)),
			bareP50: median(bareRounds.map((r) => r.p50)),
			appCpuUs: appRounds[0].cpuUs === null ? null : median(appRounds.map((r) => r.cpuUs)),
			bareCpuUs: bareRounds[0].cpuUs === null ? null : median(bareRounds.map((r) => r.cpuUs)),
			bytes: app.body.length,
			encoding: app.headers['content-encoding'] ?? 'identity'
		};
	} finally {
		await bare.stop();
	}
}

/** `; server CPU 41 µs an answer vs the bare server's 30 µs` when the rounds measured it, else ''. */
export const cpuText = (result, bare = 'the bare server') =>
	result.appCpuUs === null || result.appCpuUs === undefined
		? ''
		: `; server CPU ${fmt(result.appCpuUs, 0)} µs an answer vs ${bare}'s ${fmt(result.bareCpuUs, 0)} µs`;

/** "0.97" or, when a run had errors, what makes the figure void. */
export const ratioText = (result) =>
	result.ratio === null ? `none (${result.failures} non-2xx answers)` : fmt(result.ratio);

/**
 * A bare node:http server answering `file` with `headers` to every request: the baseline of the page figures. Its
 * head is a flat [name, value, …] list made once, the cheapest way node:http has to write one (an object is walked
 * and its headers checked again on every request): a baseline is the ceiling it claims to be, not a slower server
 * than the app's own cached path, which writes its head that way.
 */
export async function startBareServer(file, headers, { readEachTime = false, upstream = null } = {}) {
	const port = await freePort();
	// `upstream`: a bare proxy. Each answer is fetched from that URL (the bucket's object through a signed URL, over
	// undici's keep-alive pool, as the app fetches it) and its body piped on under the app's head: the least any proxy
	// of that bucket does, where the bucket's own work (s3rver: about a millisecond of CPU a GET) is on the machine too.
	if (upstream) return startBareProxy(port, upstream, headers);
	// `readEachTime`: the file is read again for every answer (one readSync into a buffer reused once sent), as a
	// proxy must fetch its upstream: what that read costs a bare server, to tell it from the rest of a proxy's work.
	const code = readEachTime
		? `
		const fs = require('node:fs');
		const fd = fs.openSync(${JSON.stringify(file)}, 'r');
		const size = fs.fstatSync(fd).size;
		const spare = [];
		const head = ${JSON.stringify(Object.entries(headers).flat())};
		require('node:http').createServer((req, res) => {
			const body = spare.pop() ?? Buffer.allocUnsafeSlow(size);
			fs.readSync(fd, body, 0, size, 0);
			res.once('close', () => spare.push(body));
			res.writeHead(200, head); res.end(body);
		}).listen(${port}, '127.0.0.1', () => console.log('ready'));`
		: `
		const body = require('node:fs').readFileSync(${JSON.stringify(file)});
		const head = ${JSON.stringify(Object.entries(headers).flat())};
		require('node:http').createServer((req, res) => { res.writeHead(200, head); res.end(body); })
			.listen(${port}, '127.0.0.1', () => console.log('ready'));`;
	return spawnBare(port, code);
}

/** `code` (a server listening on `port` that prints a line once it does) in a process of its own. */
async function spawnBare(port, code) {
	// BENCH_CPU_PROF profiles the baselines too: a gap is read from the two profiles side by side.
	const profile = process.env.BENCH_CPU_PROF
		? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
		: [];
	// Stopped by SIGTERM, it exits as a process does (a profile is written then), not killed by the signal.
	const stoppable = `process.on('SIGTERM', () => process.exit(0));${code}`;
	const child = spawn(process.execPath, [...profile, '-e', stoppable], {
		stdio: ['ignore', 'pipe', 'inherit']
	});
	await new Promise((resolve) => child.stdout.once('data', resolve));
	return {
		url: `http://127.0.0.1:${port}`,
		pid: child.pid,
		stop: () => new Promise((r) => (child.on('exit', r), child.kill('SIGTERM')))
	};
}

function startBareProxy(port, upstream, headers) {
	const code = `
		const { Pool } = require('undici');
		const { pipeline } = require('node:stream');
		const upstream = new URL(${JSON.stringify(upstream)});
		const pool = new Pool(upstream.origin, { connections: 32 });
		const path = upstream.pathname + upstream.search;
		const head = ${JSON.stringify(Object.entries(headers).flat())};
		require('node:http').createServer((req, res) => {
			pool.request({ path, method: 'GET' }).then(
				({ statusCode, body }) => {
					if (statusCode !== 200) return body.dump().then(() => { res.statusCode = 502; res.end(); });
					res.writeHead(200, head);
					pipeline(body, res, () => {});
				},
				() => { res.statusCode = 502; res.end(); }
			);
		}).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
	return spawnBare(port, code);
}

/**
 * A new database on the PostgreSQL server (BENCH_DATABASE_URL, DATABASE_URL or the local one) for `task(url)`,
 * dropped afterwards. Without a server the `part`'s line says it was skipped, and the task does not run.
 */
export async function withBenchDatabase(part, task) {
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
			`${part}.skipped (no PostgreSQL at ${adminUrl.replace(/\/\/[^@]*@/, '//***@')}: ${error.message})`
		);
		await admin.end();
		return;
	}
	try {
		const url = new URL(adminUrl);
		url.pathname = `/${name}`;
		await task(url.href);
	} finally {
		await admin.unsafe(`drop database if exists ${name} with (force)`);
		await admin.end();
	}
}

/** Makes the first admin of a fresh server and signs them in: the session's `cookie` header (name=value). */
export async function signedInAdmin(server, admin) {
	const setup = await fetch(`${server.url}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(admin)
	});
	if (setup.status !== 201) throw new Error(`setup answered ${setup.status}`);
	const login = await fetch(`${server.url}/login`, {
		method: 'POST',
		headers: { origin: server.url, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ email: admin.email, password: admin.password }),
		redirect: 'manual'
	});
	const cookie = login.headers.get('set-cookie')?.split(';')[0];
	if (!cookie) throw new Error('no session cookie');
	return cookie;
}

/**
 * A course file sent as the module editor sends it (tus, `chunk` bytes a PATCH), by a signed-in admin: what the
 * server stored (`{ value }`, the module's field value).
 */
export async function uploadCourseFile(server, cookie, { kind, name, bytes, chunk = 8 * 1024 * 1024 }) {
	const tusHeaders = { cookie, origin: server.url, 'tus-resumable': '1.0.0' };
	const metadata = `kind ${Buffer.from(kind).toString('base64')},filename ${Buffer.from(name).toString('base64')}`;
	const created = await fetch(`${server.url}/api/admin/uploads`, {
		method: 'POST',
		headers: { ...tusHeaders, 'upload-length': String(bytes.length), 'upload-metadata': metadata }
	});
	if (created.status !== 201) throw new Error(`upload creation answered ${created.status}`);
	const location = new URL(created.headers.get('location'), server.url).href;
	let stored = null;
	for (let offset = 0; offset < bytes.length; offset += chunk) {
		const answer = await fetch(location, {
			method: 'PATCH',
			headers: {
				...tusHeaders,
				'upload-offset': String(offset),
				'content-type': 'application/offset+octet-stream'
			},
			body: bytes.subarray(offset, offset + chunk)
		});
		if (answer.status === 200) stored = await answer.json();
		else if (answer.status !== 204)
			throw new Error(`PATCH answered ${answer.status}: ${await answer.text()}`);
	}
	if (!stored) throw new Error('the upload gave no stored file');
	return stored;
}

/**
 * A course in use, made through the admin's API as the editor makes it, and followed by `cookie`'s admin (admins
 * read the course as members do): a published lesson with a video, its captions, a poster and a quiz (tus uploads
 * and the modules API), a second lesson; both done, the quiz passed, the attestation issued (at its first
 * download). `wrongAttemptFirst`: the quiz is failed once first, and the next attempt waits out the retry
 * interval. `snapshot(label, html)` receives each page on the way (the lesson before and after an attempt, /bilan,
 * the attestation's page, the editor, /admin/suivi). Returns the lesson's and the attestation's paths.
 */
export async function courseInUse(server, cookie, { wrongAttemptFirst = false, snapshot = () => {} } = {}) {
	const headers = { cookie, origin: server.url };
	const get = async (url) => {
		const response = await fetch(server.url + url, { headers });
		if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
		return response.text();
	};
	const post = async (url, form) => {
		const response = await fetch(server.url + url, {
			method: 'POST',
			headers: { ...headers, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(form),
			redirect: 'manual'
		});
		if (response.status >= 500) throw new Error(`POST ${url} answered ${response.status}`);
		return response;
	};
	const fixtures = path.resolve(import.meta.dirname, '..', 'tests', 'fixtures');
	const upload = (kind, name, file) =>
		uploadCourseFile(server, cookie, { kind, name, bytes: readFileSync(path.join(fixtures, file)) });
	const video = await upload('video', 'lecon.mp4', 'media/lesson.mp4');
	const captions = await upload('captions', 'lecon.vtt', 'media/lesson.vtt');
	// A poster as a trainer makes one: a 1920 × 1080 frame (cut from the large fixture photo).
	const { default: sharp } = await import('sharp');
	const frame = await sharp(path.join(fixtures, 'images/2569067123_aca715a2ee_o.jpg'))
		.resize(1920, 1080, { fit: 'cover' })
		.jpeg({ quality: 85 })
		.toBuffer();
	const poster = await uploadCourseFile(server, cookie, {
		kind: 'poster',
		name: 'affiche.jpg',
		bytes: frame
	});
	const quiz = {
		passPercent: 100,
		questions: [
			{
				prompt: 'Quel mortier pour un mur humide ?',
				explanation: 'La chaux laisse passer la vapeur.',
				choices: [
					{ text: 'Un mortier de chaux', correct: true },
					{ text: 'Un mortier de ciment', correct: false }
				]
			}
		]
	};
	const modules = [
		{
			title: 'Le mur en pierre sèche',
			slug: 'pierre-seche',
			video: video.value,
			captions: captions.value,
			poster: poster.value,
			quiz
		},
		{ title: 'Le devis', slug: 'le-devis' }
	];
	const ids = [];
	for (const module of modules) {
		const created = await fetch(`${server.url}/api/admin/modules`, {
			method: 'POST',
			headers: { ...headers, 'content-type': 'application/json' },
			body: JSON.stringify({
				...module,
				published: true,
				durationMinutes: 20,
				content: `## ${module.title}\n\nUn paragraphe.`
			})
		});
		if (created.status !== 201)
			throw new Error(`module ${module.slug} answered ${created.status}: ${await created.text()}`);
		ids.push((await created.json()).id);
	}
	const lesson = '/cours/pierre-seche';
	snapshot(`${lesson} (before the quiz)`, await get(lesson));
	if (wrongAttemptFirst) {
		const wrong = await (await post(`${lesson}?/quiz`, { q0: '1' })).text();
		if (!wrong.includes('Relisez les explications'))
			throw new Error(
				'the wrong attempt was not graded as one (the page does not say to read the explanations)'
			);
		snapshot(`${lesson} (after a wrong attempt)`, wrong);
	}
	await post('/cours/le-devis?/complete', {});
	snapshot('/cours/le-devis (done)', await get('/cours/le-devis'));
	// The quiz passed completes its module: every module done. After a wrong attempt, the next waits out the
	// retry interval the server names.
	for (let attempt = 0; ; attempt++) {
		const answer = await post(`${lesson}?/quiz`, { q0: '0' });
		const text = await answer.text();
		if (text.includes('Quiz réussi')) break;
		if (attempt === 2) throw new Error(`the right answers were not taken (${answer.status})`);
		const wait = Number(answer.headers.get('retry-after') || 30);
		console.log(`quiz: attempt refused (${answer.status}), the next in ${wait} s`);
		await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 500));
	}
	// The course's end as a training organisation runs it (issue « Formation, part 1 »): objectives written (no
	// attestation without them), then /bilan asks its survey first — the page as it asks, then answered.
	const json = (method, url, body) =>
		fetch(server.url + url, {
			method,
			headers: { ...headers, 'content-type': 'application/json' },
			body: JSON.stringify(body)
		});
	const settings = await json('PUT', '/api/admin/course', {
		objectives: 'Monter un mur en pierre sèche.\nChiffrer un devis juste.\nPrésenter ses chantiers.'
	});
	if (settings.status !== 200) throw new Error(`the course's settings answered ${settings.status}`);
	snapshot('/bilan (the survey)', await get('/bilan'));
	const survey = await json('POST', '/api/cours/satisfaction', {
		ratings: [5, 4, 5, 4, 5],
		comment: 'Clair et concret.'
	});
	if (survey.status !== 201) throw new Error(`the survey answered ${survey.status}`);
	const pdf = await fetch(`${server.url}/bilan/attestation.pdf`, { headers, redirect: 'manual' });
	if (pdf.status !== 200) throw new Error(`the attestation answered ${pdf.status}`);
	const bilan = await get('/bilan');
	snapshot('/bilan (every module done)', bilan);
	const code = /\/attestation\/([a-z2-7]{26})/.exec(bilan)?.[1];
	if (!code) throw new Error('/bilan links to no attestation');
	const attestation = `/attestation/${code}`;
	snapshot(attestation, await get(attestation));
	snapshot(`/admin/cours/${ids[0]} (the editor)`, await get(`/admin/cours/${ids[0]}`));
	snapshot('/admin/suivi (with a learner)', await get('/admin/suivi'));
	return { lesson, attestation };
}
