// Part "images" of `npm run bench` (issue: private image pipeline). Each figure is a ratio to a baseline measured
// in the same run, on the same machine, with the same load generator.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
	fmt,
	load,
	median,
	pairedRatio,
	rawResponse,
	cpuText,
	ratioText,
	rssOf,
	signedInAdmin,
	startServer,
	versusBareServer,
	withBenchDatabase
} from './lib.mjs';

const FIXTURES = path.resolve(import.meta.dirname, '..', 'tests', 'fixtures', 'images');

const ADMIN = { name: 'Bench', email: 'bench@exemple.fr', password: 'une phrase de passe solide' };

/** Writes an object straight into the fs driver's bucket (as an upload would), and points a slot at it. */
async function placeObject(server, cookie, key, name, bytes) {
	const dir = path.join(server.dataDir, 'storage', 'private-gallery');
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, name), bytes);
	writeFileSync(
		path.join(dir, `${name}.meta.json`),
		JSON.stringify({
			contentType: 'image/webp',
			cacheControl: 'public, max-age=31536000, immutable',
			etag: `"${name}"`
		})
	);
	const put = await fetch(`${server.url}/api/admin/site-images`, {
		method: 'PUT',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({ key, url: `storage:${name}` })
	});
	if (put.status !== 200) throw new Error(`PUT answered ${put.status}`);
	const list = await (await fetch(`${server.url}/api/admin/site-images`, { headers: { cookie } })).json();
	return new URL(list.images.find((i) => i.key === key).previewUrl);
}

/** A WebP of grey noise (no encoder shortcut: every pixel costs), `width` × `height`. */
const noisyWebp = (width, height, { sigma, quality }) =>
	sharp({
		create: { width, height, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma } }
	})
		.webp({ quality })
		.toBuffer();

/** A 1600-px photo: its upload makes the 800-px variant pages ask for most (`?w=800`). */
const benchPhoto = () => noisyWebp(1600, 1000, { sigma: 30, quality: 70 });

/** s3rver in a process of its own (as a bucket is its own service), with a bucket for the site's images. */
async function startBucket() {
	const { spawn } = await import('node:child_process');
	const { mkdtempSync } = await import('node:fs');
	const { tmpdir } = await import('node:os');
	const directory = mkdtempSync(path.join(tmpdir(), 'atelier-bench-s3-'));
	const code = `
		const S3rver = require('s3rver');
		new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(directory)} })
			.run().then(({ port }) => console.log(port));`;
	const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
	const port = Number(await new Promise((resolve) => child.stdout.once('data', resolve)));
	return {
		env: {
			STORAGE_DRIVER: 's3',
			S3_ENDPOINT: `http://127.0.0.1:${port}`,
			S3_ACCESS_KEY: 'S3RVER',
			S3_SECRET_KEY: 'S3RVER',
			S3_REGION: 'us-east-1',
			S3_BUCKET: 'atelier-bench'
		},
		stop: () => new Promise((r) => (child.on('exit', r), child.kill('SIGTERM')))
	};
}

/**
 * Requests in a round on S3, where every answer waits for the bucket: s3rver answers a few hundred a second, and
 * rounds as long as the embedded ones' would take minutes each.
 */
const S3_ROUND = 1500;

/** A GET of the `width`-px variant of a stored upload (`storage:<path>`), signed as the app signs one (minio). */
async function presignedVariant(env, value, width) {
	const { Client } = await import('minio');
	const endpoint = new URL(env.S3_ENDPOINT);
	const client = new Client({
		endPoint: endpoint.hostname,
		port: Number(endpoint.port),
		useSSL: false,
		accessKey: env.S3_ACCESS_KEY,
		secretKey: env.S3_SECRET_KEY,
		region: env.S3_REGION
	});
	const objectPath = value.slice('storage:'.length).replace(/\.webp$/, `-w${width}.webp`);
	return client.presignedGetObject(env.S3_BUCKET, objectPath, 3600);
}

/**
 * The proxy's answer of a stored variant (`/api/img/hero?w=800`, what a page's srcset asks most) against a bare
 * node:http server sending the same bytes and headers: the ceiling (issue « Speed, part 2 »).
 */
async function proxyAgainstBare(label, env) {
	const server = await startServer(env);
	try {
		const cookie = await signedInAdmin(server, ADMIN);
		const full = await benchPhoto();
		const form = new FormData();
		form.append('file', new Blob([full], { type: 'image/webp' }), 'hero.webp');
		const upload = await fetch(`${server.url}/api/admin/upload`, {
			method: 'POST',
			headers: { cookie, origin: server.url },
			body: form
		});
		const stored = await upload.json();
		if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${JSON.stringify(stored)}`);
		const put = await fetch(`${server.url}/api/admin/site-images`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({ key: 'hero', url: stored.value, alt: 'Banc d’essai' })
		});
		if (put.status !== 200) throw new Error(`PUT answered ${put.status}`);
		const target = '/api/img/hero?w=800';
		// The variant the upload made (800 px wide): waited for, it is made after the upload's answer.
		for (let i = 0; i < 100; i++) {
			const probe = await rawResponse(server.url + target, {});
			if (probe.status === 200 && !probe.headers['x-image-fallback'] && probe.body.length < full.length)
				break;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		// A long warm-up: the proxy's first thousands of answers run before V8 has optimised its path. Rounds as
		// long as the pages' (ROUND_REQUESTS): rounds of 3 000 put two identical bare servers 0.87–0.95 apart.
		const s3 = label !== 'embedded';
		// On S3 the ceiling is a bare proxy of the same object (SEED.md: every answer fetched from the bucket through a
		// signed URL): a bare server holding the bytes would measure s3rver's speed, not the proxy's.
		const signed = s3 ? new URL(await presignedVariant(env, stored.value, 800)) : null;
		const result = await versusBareServer(server, target, {
			...(s3 ? { warm: 2 * S3_ROUND, total: S3_ROUND, rounds: 5, upstream: signed.href } : { warm: 20_000 }),
			control: true,
			check: (app) => {
				if (app.headers['x-image-fallback']) throw new Error(`${target} is a fallback`);
			}
		});
		// The same, against a bare server that also reads the file for every answer: the part of the gap that is the
		// read each request must make (SEED.md: the upstream fetched every time), and the part that is the rest.
		const reading = !s3 ? await versusBareServer(server, target, { warm: 20_000, readEachTime: true }) : null;
		// On S3, every answer is fetched from the bucket: how fast the bucket itself answers a direct GET of the same
		// object (the 800-px variant, through a URL signed as the app signs it), in alternating pairs with the proxy
		// — the proxy's ceiling there is the bucket's.
		let versusBucket = null;
		if (s3) {
			const direct = await rawResponse(signed.href, {});
			const proxied = await rawResponse(server.url + target, {});
			if (direct.status !== 200 || !direct.body.equals(proxied.body))
				throw new Error('the bucket does not send what the proxy sent');
			versusBucket = await pairedRatio(
				(url) =>
					load(url, url === server.url ? target : signed.pathname + signed.search, { total: S3_ROUND }),
				server.url,
				signed.origin,
				5
			);
		}
		if (versusBucket)
			console.log(
				`images.proxy_ratio_${label}_vs_bucket ${fmt(versusBucket.ratio)} (proxy ${fmt(median(versusBucket.firstRounds.map((r) => r.rps)), 0)} req/s vs the bucket answering a direct GET of the same variant through a signed URL ${fmt(median(versusBucket.secondRounds.map((r) => r.rps)), 0)} req/s: on S3 the bucket (s3rver here) is the ceiling)`
			);
		if (reading)
			console.log(
				`images.proxy_ratio_${label}_vs_reading_bare ${ratioText(reading)} (proxy ${fmt(reading.appRps, 0)} req/s vs a bare server that reads the file for each answer ${fmt(reading.bareRps, 0)} req/s${cpuText(reading, 'the reading bare server')})`
			);
		if (result.noise !== null)
			console.log(
				`images.noise_ratio${s3 ? `_${label}` : ''} ${fmt(result.noise)} (a bare ${s3 ? 'proxy' : 'server'} against an identical one, the same way: how far from 1.00 a ratio lands by chance)`
			);
		const bare = s3
			? 'a bare node:http proxy fetching the same object from the bucket for each answer and sending it under the same headers'
			: 'bare node:http sending the same bytes and headers';
		console.log(
			`images.proxy_ratio_${label} ${ratioText(result)} (proxy ${fmt(result.appRps, 0)} req/s, p50 ${fmt(result.appP50)} ms vs ${bare} (${(result.bytes / 1024).toFixed(0)} KB) ${fmt(result.bareRps, 0)} req/s, p50 ${fmt(result.bareP50)} ms${cpuText(result, s3 ? 'the bare proxy' : 'the bare server')}; 16 clients; goal >= 0.9, p50 within 1 ms)`
		);
		return result;
	} finally {
		await server.stop();
	}
}

export async function benchImages() {
	// a) The proxy against the ceiling, on the embedded defaults and on PostgreSQL + S3.
	await proxyAgainstBare('embedded', {});
	await withBenchDatabase('images.proxy_ratio_postgres_s3', async (databaseUrl) => {
		const bucket = await startBucket();
		try {
			await proxyAgainstBare('postgres_s3', { DATABASE_URL: databaseUrl, ...bucket.env });
		} finally {
			await bucket.stop();
		}
	});

	const server = await startServer();
	try {
		const cookie = await signedInAdmin(server, ADMIN);
		const object = await noisyWebp(900, 700, { sigma: 40, quality: 90 });

		// b) upload of a 24-megapixel photo vs one sharp decode + resize + WebP encode of the same photo.
		const photo = await sharp(readFileSync(path.join(FIXTURES, '2569067123_aca715a2ee_o.jpg')))
			.resize(6000, 4000, { fit: 'fill' })
			.composite([
				{
					input: await sharp({
						create: {
							width: 6000,
							height: 4000,
							channels: 3,
							background: '#808080',
							noise: { type: 'gaussian', mean: 0, sigma: 12 }
						}
					})
						.png()
						.toBuffer(),
					blend: 'soft-light'
				}
			])
			.jpeg({ quality: 90 })
			.toBuffer();
		const baselineTimes = [];
		for (let i = 0; i < 3; i++) {
			const start = performance.now();
			await sharp(photo)
				.rotate()
				.resize(2560, 2560, { fit: 'inside', withoutEnlargement: true })
				.webp({ quality: 82 })
				.toBuffer();
			baselineTimes.push(performance.now() - start);
		}
		const uploadTimes = [];
		let stats;
		for (let i = 0; i < 3; i++) {
			// One photo at a time, as an admin uploads: the smaller widths an upload makes after its answer
			// (about 0.3 s of encoding) are not billed to the next upload.
			if (i > 0) await new Promise((resolve) => setTimeout(resolve, 1500));
			const form = new FormData();
			form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
			const start = performance.now();
			const response = await fetch(`${server.url}/api/admin/upload`, {
				method: 'POST',
				headers: { cookie, origin: server.url },
				body: form
			});
			const body = await response.json();
			uploadTimes.push(performance.now() - start);
			if (response.status !== 201)
				throw new Error(`upload answered ${response.status}: ${JSON.stringify(body)}`);
			stats = body.stats;
		}
		console.log(
			`images.upload_24mp_ratio ${fmt(median(uploadTimes) / median(baselineTimes))} (upload ${fmt(median(uploadTimes), 0)} ms vs sharp decode+resize+encode ${fmt(median(baselineTimes), 0)} ms; ${(photo.length / 1048576).toFixed(1)} MB in, ${(stats.sizeAfter / 1024).toFixed(0)} KB out at q${stats.quality}; target <= 1.5, output <= 1024 KB)`
		);

		// c) RSS growth of the server while 16 clients stream a 5 MB object through the proxy.
		const big = Buffer.concat([object, Buffer.alloc(5 * 1024 * 1024 - object.length)]);
		// Named as the upload pipeline names a photo: a slot takes no other stored value ($lib/images PHOTO_VALUE).
		await placeObject(server, cookie, 'training', '5b5b5b5b-0000-4000-8000-000000000005.webp', big);
		await load(server.url, '/api/img/training', { total: 32 });
		const before = rssOf(server.child.pid);
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.child.pid))), 20);
		const streamed = await load(server.url, '/api/img/training', { total: 320 });
		clearInterval(sampler);
		console.log(
			`images.rss_growth_mb ${fmt((peak - before) / 1048576, 1)} (16 clients × 20 requests of a 5 MB object, ${fmt(streamed.rps, 0)} req/s; baseline RSS ${fmt(before / 1048576, 0)} MB; target <= 50)`
		);
	} finally {
		await server.stop();
	}
}
