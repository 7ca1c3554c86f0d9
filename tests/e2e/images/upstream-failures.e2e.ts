/**
 * Issue "Hardening", points 1 and 10, over the wire: the built server against a hostile upstream on loopback.
 * An image whose upstream breaks after the headers were sent — the S3 server cuts the connection, an external
 * host stalls — must cost that one response, never the process: the response is cut (not hung), the failure
 * logged, the slot served its fallback at once afterwards, every other route unaffected. With the database gone,
 * images fall back too.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { BODY_STALL_MS } from '../../../src/lib/server/images/remote';
import { createEmptyPostgresDatabase, serverUrl } from '../../helpers/database';
import { startHostileUpstream, type HostileUpstream } from '../../helpers/hostile-upstream';
import { startIsolatedServer, startServer, type RunningServer } from '../support/server';

test.describe.configure({ mode: 'serial' });

const image = randomBytes(256 * 1024);
const ADMIN = { name: 'Admin', email: 'admin-upstream@exemple.fr', password: 'une phrase de passe solide' };

let hostile: HostileUpstream;
let server: RunningServer;
let cookie = '';

/** Creates the site's admin and keeps its session cookie. */
async function signInAsAdmin(base: string): Promise<string> {
	const setup = await fetch(`${base}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(ADMIN)
	});
	expect(setup.status).toBe(201);
	const login = await fetch(`${base}/login`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: base, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }).toString()
	});
	expect(login.status).toBe(303);
	return login.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
}

async function setSlot(key: string, url: string) {
	const response = await fetch(`${server.url}/api/admin/site-images`, {
		method: 'PUT',
		headers: { cookie, origin: server.url, 'content-type': 'application/json' },
		body: JSON.stringify({ key, url })
	});
	expect(response.status, await response.text()).toBe(200);
}

/** The image's headers arrive as usual, then its body fails: the client sees a cut answer. */
async function expectCutImage(key: string): Promise<number> {
	const response = await fetch(`${server.url}/api/img/${key}`);
	expect(response.status).toBe(200);
	expect(response.headers.get('x-image-fallback')).toBeNull();
	expect(response.headers.get('content-length')).toBe(String(image.length));
	const started = Date.now();
	await expect(response.arrayBuffer()).rejects.toThrow();
	return Date.now() - started;
}

/** The server is alive and every other route answers. */
async function expectServerWhole() {
	expect(server.child.exitCode).toBeNull();
	expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
	expect((await fetch(`${server.url}/macon`)).status).toBe(200);
	const other = await fetch(`${server.url}/api/img/paysagiste_hero`);
	expect(other.status).toBe(200);
	expect((await other.arrayBuffer()).byteLength).toBeGreaterThan(0);
}

/** The slot's next request answers at once with a whole fallback image, without asking the dead upstream. */
async function expectQuickFallback(key: string) {
	const started = Date.now();
	const response = await fetch(`${server.url}/api/img/${key}`);
	const body = await response.arrayBuffer();
	expect(response.status).toBe(200);
	expect(response.headers.get('x-image-fallback')).toBe('1');
	expect(response.headers.get('content-type')).toBe('image/webp');
	expect(body.byteLength).toBe(Number(response.headers.get('content-length')));
	expect(Date.now() - started).toBeLessThan(BODY_STALL_MS / 2);
}

test.beforeAll(async () => {
	hostile = await startHostileUpstream(image);
	server = await startIsolatedServer({
		STORAGE_DRIVER: 's3',
		S3_ENDPOINT: hostile.url,
		S3_ACCESS_KEY: 'atelier-test',
		S3_SECRET_KEY: 'atelier-test-secret-key',
		IMAGE_REMOTE_HOSTS: hostile.host
	});
	cookie = await signInAsAdmin(server.url);
});

test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
	await hostile.close();
});

test('an S3 object cut mid-body costs one cut response, not the process', async () => {
	await setSlot('hero', 'storage:cut-hero.webp');
	await expectCutImage('hero');
	expect(hostile.hits('/private-gallery/cut-hero.webp')).toBe(1);
	await expect
		.poll(() => server.output())
		.toMatch(/"level":"warn","message":"site image stream failed[^\n]*"key":"hero"/);
	expect(server.output()).not.toMatch(/X-Amz-Signature/i);
	await expectServerWhole();
	await expectQuickFallback('hero');
	expect(hostile.hits('/private-gallery/cut-hero.webp')).toBe(1);
});

test('an external image that stalls mid-body is cut at the stall limit, not held', async () => {
	test.setTimeout(BODY_STALL_MS * 5);
	await setSlot('macon_hero', `http://${hostile.host}/photos/stall.jpg`);
	const elapsed = await expectCutImage('macon_hero');
	expect(elapsed).toBeGreaterThanOrEqual(BODY_STALL_MS * 0.9);
	expect(elapsed).toBeLessThan(BODY_STALL_MS * 2.5);
	await expect
		.poll(() => server.output())
		.toMatch(/"message":"site image stream failed[^\n]*"key":"macon_hero"[^\n]*stalled/);
	await expectServerWhole();
	await expectQuickFallback('macon_hero');
	expect(hostile.hits('/photos/stall.jpg')).toBe(1);
});

test('an external host that cuts mid-body, on every image of a page, never stops the server', async () => {
	const keys = ['paysagiste_gallery_1', 'paysagiste_gallery_2', 'paysagiste_gallery_3'];
	for (const key of keys) await setSlot(key, `http://${hostile.host}/photos/cut-${key}.jpg`);
	await Promise.all(keys.map((key) => expectCutImage(key)));
	await expectServerWhole();
	for (const key of keys) await expectQuickFallback(key);
});

test('with the database gone, /api/img serves the fallback image', async () => {
	test.skip(!serverUrl, 'needs DATABASE_URL: the test drops the server database under the running app');
	const database = await createEmptyPostgresDatabase();
	const own = await startServer({ DATABASE_URL: database.url });
	try {
		// No image asked before the drop: the slot values' 2-second cache must not answer for the database.
		expect((await fetch(`${own.url}/healthz`)).status).toBe(200);
		await database.drop();
		const response = await fetch(`${own.url}/api/img/hero`);
		expect(response.status).toBe(200);
		expect(response.headers.get('x-image-fallback')).toBe('1');
		expect(response.headers.get('content-type')).toBe('image/webp');
		expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
		expect(own.child.exitCode).toBeNull();
	} finally {
		await own.stop();
	}
});
