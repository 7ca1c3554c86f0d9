/**
 * Request bodies and connections, over real sockets against the built server: an answer given before the body
 * was read never leaves a keep-alive connection hanging, every route refuses a body far past what it can hold
 * before buffering it, and nothing private is cacheable.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from '../support/fixtures';
import { E2E_ADMIN, register, signInAsAdmin } from '../support/accounts';
import { RawConnection, requestHead, type RawResponse } from '../support/raw-http';

test.describe.configure({ mode: 'serial' });

const MB = 1024 * 1024;
let base: string;
let memberCookie: string;
let adminCookie: string;

async function cookieOf(page: Page) {
	return (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

test.beforeAll(async ({ browser }) => {
	base = process.env.E2E_BASE_URL!;
	const member = await browser.newPage({ baseURL: base });
	await register(member, base, 'Membre Connexions', `connexions-${randomUUID()}@exemple.fr`);
	await expect(member).toHaveURL(`${base}/dashboard`);
	memberCookie = await cookieOf(member);
	const admin = await browser.newPage({ baseURL: base });
	await signInAsAdmin(admin);
	adminCookie = await cookieOf(admin);
	await member.close();
	await admin.close();
});

/**
 * After an answer on `connection`, the connection either answers the next request within a few seconds, or was
 * closed (it said `Connection: close`) and a new connection is answered.
 */
async function expectNextRequestAnswered(connection: RawConnection, first: RawResponse) {
	const healthz = requestHead('GET', '/healthz', base, {});
	if (first.headers.connection === 'close') {
		expect(await connection.closesWithin(5_000), 'the connection is closed after its answer').toBe(true);
		const fresh = await RawConnection.open(base);
		fresh.write(healthz);
		expect((await fresh.response(5_000)).status).toBe(200);
		fresh.destroy();
		return;
	}
	connection.write(healthz);
	expect((await connection.response(5_000)).status).toBe(200);
	connection.destroy();
}

/** Sends one request with a body of `size` bytes on a new connection and returns its answer. */
async function sendBody(
	method: string,
	target: string,
	headers: Record<string, string>,
	body: Buffer,
	{ chunked = false } = {}
) {
	const connection = await RawConnection.open(base);
	const head = chunked
		? { ...headers, 'Transfer-Encoding': 'chunked' }
		: { ...headers, 'Content-Length': String(body.length) };
	connection.write(requestHead(method, target, base, { Origin: base, ...head }));
	if (chunked) connection.writeChunked(body);
	else connection.write(body);
	const response = await connection.response();
	return { connection, response };
}

const multipartType = 'multipart/form-data; boundary=----atelier-test';

function multipart(field: string, filename: string, type: string, data: Buffer) {
	return Buffer.concat([
		Buffer.from(
			`------atelier-test\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
				`Content-Type: ${type}\r\n\r\n`
		),
		data,
		Buffer.from('\r\n------atelier-test--\r\n')
	]);
}

function problemOf(response: RawResponse) {
	expect(response.headers['content-type']).toContain('application/problem+json');
	return JSON.parse(response.body.toString('utf8')) as { status: number; detail: string };
}

test.describe('an answer given before the body was read leaves the connection usable', () => {
	test('401: an anonymous 5 MB upload', async () => {
		const { connection, response } = await sendBody(
			'POST',
			'/api/admin/upload',
			{ 'Content-Type': multipartType },
			Buffer.alloc(5 * MB, 'a')
		);
		expect(response.status).toBe(401);
		expect(problemOf(response).status).toBe(401);
		await expectNextRequestAnswered(connection, response);
	});

	test('403: a 5 MB upload by a signed-in member who is not an admin', async () => {
		const { connection, response } = await sendBody(
			'POST',
			'/api/admin/upload',
			{ 'Content-Type': multipartType, Cookie: memberCookie },
			Buffer.alloc(5 * MB, 'a')
		);
		expect(response.status).toBe(403);
		await expectNextRequestAnswered(connection, response);
	});

	test('415: a 5 MB admin upload that is not multipart', async () => {
		const { connection, response } = await sendBody(
			'POST',
			'/api/admin/upload',
			{ 'Content-Type': 'application/octet-stream', Cookie: adminCookie },
			Buffer.alloc(5 * MB, 'a')
		);
		expect(response.status).toBe(415);
		await expectNextRequestAnswered(connection, response);
	});

	test('413: an upload declaring more than 20 MB, refused before it is read', async () => {
		const connection = await RawConnection.open(base);
		connection.write(
			requestHead('POST', '/api/admin/upload', base, {
				Origin: base,
				Cookie: adminCookie,
				'Content-Type': multipartType,
				'Content-Length': String(21 * MB)
			})
		);
		// The client has sent a part of its body when the answer comes: it must not have to send the rest.
		connection.write(Buffer.alloc(MB, 'a'));
		const response = await connection.response();
		expect(response.status).toBe(413);
		expect(response.headers.connection).toBe('close');
		expect(problemOf(response).detail).toContain('20 Mo');
		await expectNextRequestAnswered(connection, response);
	});

	test('413: a chunked 1 MB JSON body, cut at the limit', async () => {
		const { connection, response } = await sendBody(
			'POST',
			'/api/contact',
			{ 'Content-Type': 'application/json' },
			Buffer.from(JSON.stringify({ name: 'A', email: 'a@exemple.fr', message: 'x'.repeat(MB) })),
			{ chunked: true }
		);
		expect(response.status).toBe(413);
		expect(response.headers.connection).toBe('close');
		await expectNextRequestAnswered(connection, response);
	});
});

test('a client that half-closes its side after its request gets the whole image (/api/img)', async () => {
	const connection = await RawConnection.open(base);
	connection.write(requestHead('GET', '/api/img/hero', base, {}));
	connection.endWriting();
	const answer = await connection.response(10_000);
	expect(answer.status).toBe(200);
	const length = Number(answer.headers['content-length']);
	expect(length).toBeGreaterThan(1_000);
	expect(answer.body.length).toBe(length);
	expect(await connection.closesWithin(5_000)).toBe(true);
});

test.describe('every route has a body limit that fits it', () => {
	test('a 1 MB form post to /login is refused with 413, not buffered', async () => {
		const body = Buffer.from(`email=a%40exemple.fr&password=${'x'.repeat(MB)}`);
		const { connection, response } = await sendBody(
			'POST',
			'/login',
			{ 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
			body
		);
		expect(response.status).toBe(413);
		expect(response.headers.connection).toBe('close');
		expect(problemOf(response).detail).toContain('64 Ko');
		await expectNextRequestAnswered(connection, response);
	});

	test('a 100 KB JSON body to /api/contact is refused with 413', async () => {
		const { connection, response } = await sendBody(
			'POST',
			'/api/contact',
			{ 'Content-Type': 'application/json' },
			Buffer.from(JSON.stringify({ name: 'A', email: 'a@exemple.fr', message: 'x'.repeat(100 * 1024) }))
		);
		expect(response.status).toBe(413);
		// Refused by the entry, which names the route's limit.
		expect(problemOf(response).detail).toContain('64 Ko');
		await expectNextRequestAnswered(connection, response);
	});

	test('a chunked 1 MB form post without Content-Length is refused with 413', async () => {
		const { connection, response } = await sendBody(
			'POST',
			'/login',
			{ 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
			Buffer.from(`email=a%40exemple.fr&password=${'x'.repeat(MB)}`),
			{ chunked: true }
		);
		expect(response.status).toBe(413);
		await expectNextRequestAnswered(connection, response);
	});

	test('a small chunked JSON body still reaches its route, whole', async () => {
		const { connection, response } = await sendBody(
			'POST',
			'/api/contact',
			{ 'Content-Type': 'application/json' },
			Buffer.from(JSON.stringify({ name: 'Anne', email: 'pas-une-adresse', message: 'un message valable' })),
			{ chunked: true }
		);
		// Read and validated: the one wrong field is named.
		expect(response.status).toBe(400);
		expect(Object.keys((problemOf(response) as { errors?: object }).errors ?? {})).toEqual(['email']);
		await expectNextRequestAnswered(connection, response);
	});

	test('the upload still takes a 5 MB photo, with a Content-Length or chunked', async () => {
		// A 1300 × 1300 gradient as an uncompressed PNG: about 5 MB on the wire, small once in WebP.
		const width = 1300;
		const pixels = Buffer.alloc(width * width * 3);
		for (let i = 0; i < width * width; i++) {
			pixels[i * 3] = i % 256;
			pixels[i * 3 + 1] = Math.floor(i / width) % 256;
			pixels[i * 3 + 2] = 128;
		}
		const png = await sharp(pixels, { raw: { width, height: width, channels: 3 } })
			.png({ compressionLevel: 0 })
			.toBuffer();
		expect(png.length).toBeGreaterThan(4.5 * MB);
		const body = multipart('file', 'grand.png', 'image/png', png);
		for (const chunked of [false, true]) {
			const { connection, response } = await sendBody(
				'POST',
				'/api/admin/upload',
				{ 'Content-Type': multipartType, Cookie: adminCookie },
				body,
				{ chunked }
			);
			expect(response.status, response.body.toString()).toBe(201);
			expect(JSON.parse(response.body.toString()).stats).toMatchObject({ width, height: width });
			// A body read to its end keeps the connection alive.
			expect(response.headers.connection).not.toBe('close');
			await expectNextRequestAnswered(connection, response);
		}
	});
});

test.describe('private pages are not cacheable', () => {
	const get = (path: string, cookie?: string) =>
		fetch(`${base}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

	test('member pages, for the member and as redirects to /login', async () => {
		for (const path of ['/dashboard', '/profil']) {
			const signedIn = await get(path, memberCookie);
			expect(signedIn.status, path).toBe(200);
			expect(signedIn.headers.get('cache-control'), path).toBe('private, no-store');
			const anonymous = await get(path);
			expect(anonymous.status, path).toBe(303);
			expect(anonymous.headers.get('location'), path).toContain('/login');
			expect(anonymous.headers.get('cache-control'), path).toBe('private, no-store');
		}
	});

	test('admin pages and the admin API', async () => {
		for (const path of ['/admin', '/admin/images', '/api/admin/site-images']) {
			const response = await get(path, adminCookie);
			expect(response.status, path).toBe(200);
			expect(response.headers.get('cache-control'), path).toBe('private, no-store');
		}
		const anonymous = await get('/api/admin/site-images');
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers.get('cache-control')).toBe('private, no-store');
	});

	test('a sign-in, whose answer sets the session cookie', async () => {
		const response = await fetch(`${base}/login`, {
			method: 'POST',
			redirect: 'manual',
			headers: { origin: base, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ email: E2E_ADMIN.email, password: E2E_ADMIN.password })
		});
		expect(response.status).toBe(303);
		expect(response.headers.get('set-cookie')).toContain('session=');
		expect(response.headers.get('cache-control')).toBe('private, no-store');
	});

	test('the home page for a signed-in visitor, but not for an anonymous one', async () => {
		const signedIn = await get('/', memberCookie);
		expect(signedIn.status).toBe(200);
		expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
		// Twice: the second anonymous visit is served by the entry's cached-page fast path.
		for (let i = 0; i < 2; i++) {
			const anonymous = await get('/');
			expect(anonymous.status).toBe(200);
			expect(anonymous.headers.get('x-page-cache')).toBeTruthy();
			expect(anonymous.headers.get('cache-control')).toBe('no-cache');
		}
		const afterMember = await get('/');
		expect(afterMember.headers.get('cache-control')).not.toContain('private');
	});
});
