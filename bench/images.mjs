// Part "images" of `npm run bench` (issue: private image pipeline). Each figure is a ratio to a baseline measured
// in the same run, on the same machine, with the same load generator.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { fmt, load, median, rawResponse, rssOf, startServer } from './lib.mjs';

const FIXTURES = path.resolve(import.meta.dirname, '..', 'tests', 'fixtures', 'images');

async function signInAsAdmin(url) {
	const credentials = { name: 'Bench', email: 'bench@exemple.fr', password: 'une phrase de passe solide' };
	await fetch(`${url}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(credentials)
	});
	const response = await fetch(`${url}/login`, {
		method: 'POST',
		redirect: 'manual',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, accept: 'text/html' },
		body: new URLSearchParams({ email: credentials.email, password: credentials.password })
	});
	return response.headers.get('set-cookie').split(';')[0];
}

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

export async function benchImages() {
	const server = await startServer();
	try {
		const cookie = await signInAsAdmin(server.url);

		// a) proxy vs a direct GET of the same 300 KB object from storage (its signed URL).
		const object = await sharp({
			create: {
				width: 900,
				height: 700,
				channels: 3,
				background: '#888',
				noise: { type: 'gaussian', mean: 128, sigma: 40 }
			}
		})
			.webp({ quality: 90 })
			.toBuffer();
		const padded = Buffer.concat([object, Buffer.alloc(Math.max(0, 300 * 1024 - object.length))]);
		const signed = await placeObject(server, cookie, 'about', 'bench-300k.webp', padded);
		// The baseline must send what the proxy sends: the same status and bytes, checked before measuring.
		const [viaProxy, viaStorage] = await Promise.all([
			rawResponse(`${server.url}/api/img/about`, {}),
			rawResponse(server.url + signed.pathname + signed.search, {})
		]);
		if (viaProxy.status !== 200 || viaStorage.status !== 200 || !viaProxy.body.equals(viaStorage.body))
			throw new Error('the proxy and the direct GET do not send the same image');
		await load(server.url, '/api/img/about', { total: 300 }); // warm-up
		await load(server.url, signed.pathname + signed.search, { total: 300 });
		// Interleaved rounds, medians: neither side benefits from running second on a warmer process.
		const directRounds = [];
		const proxyRounds = [];
		for (let round = 0; round < 3; round++) {
			directRounds.push(await load(server.url, signed.pathname + signed.search, { total: 1500 }));
			proxyRounds.push(await load(server.url, '/api/img/about', { total: 1500 }));
		}
		const pick = (rounds) => ({
			rps: median(rounds.map((r) => r.rps)),
			p50: median(rounds.map((r) => r.p50)),
			p99: median(rounds.map((r) => r.p99)),
			failures: rounds.reduce((n, r) => n + r.failures, 0)
		});
		const direct = pick(directRounds);
		const proxy = pick(proxyRounds);
		const voided = proxy.failures || direct.failures;
		console.log(
			`images.proxy_throughput_ratio ${voided ? `none (${proxy.failures + direct.failures} non-2xx answers)` : fmt(proxy.rps / direct.rps)} (proxy ${fmt(proxy.rps, 0)} req/s vs direct storage ${fmt(direct.rps, 0)} req/s, 300 KB, 16 clients; goal >= 0.9)`
		);
		console.log(
			`images.proxy_added_p50_ms ${voided ? 'none' : fmt(proxy.p50 - direct.p50)} (p50 ${fmt(proxy.p50)} vs ${fmt(direct.p50)} ms; p99 ${fmt(proxy.p99)} vs ${fmt(direct.p99)} ms; goal <= 1)`
		);

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
		await placeObject(server, cookie, 'training', 'bench-5m.webp', big);
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
