/**
 * A broken upstream never stops the server (issue "Hardening", point 1): an external image that dies or stalls
 * after its headers aborts that one response, is logged, and makes the next requests fall back at once.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { expect, test } from '../support/fixtures';
import { adminApiOn } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { fixture } from '../../helpers/fixtures';

test.describe.configure({ mode: 'serial' });

const jpeg = readFileSync(fixture('Landscape_1.jpg'));
let upstream: Server;
let server: RunningServer;
const silent: ServerResponse[] = [];

test.beforeAll(async () => {
	upstream = createServer((req, res) => {
		res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
		if (req.url?.startsWith('/cut')) {
			res.write(jpeg.subarray(0, 8192), () => setTimeout(() => res.socket?.destroy(), 20));
		} else {
			res.write(jpeg.subarray(0, 8192));
			silent.push(res);
		}
	});
	await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
	const { port } = upstream.address() as { port: number };
	server = await startIsolatedServer({ IMAGE_REMOTE_HOSTS: `127.0.0.1:${port}` });
	const admin = await adminApiOn(server.url);
	for (const [key, path] of [
		['macon_hero', '/cut.jpg'],
		['macon_about', '/stall.jpg']
	]) {
		const put = await admin.put('/api/admin/site-images', {
			data: { key, url: `http://127.0.0.1:${port}${path}` }
		});
		expect(put.status()).toBe(200);
	}
	await admin.dispose();
});

test.afterAll(async () => {
	for (const res of silent) res.socket?.destroy();
	await server?.stop();
	await new Promise((resolve) => upstream?.close(resolve));
});

async function readAll(url: string) {
	const response = await fetch(url);
	return { response, body: response.arrayBuffer() };
}

test('an upstream cut after its headers aborts that response, and the server lives on', async () => {
	const { response, body } = await readAll(`${server.url}/api/img/macon_hero`);
	expect(response.status).toBe(200);
	await expect(body).rejects.toThrow();
	expect(server.child.exitCode).toBeNull();
	expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
	const next = await fetch(`${server.url}/api/img/macon_hero`);
	expect(next.status).toBe(200);
	expect(next.headers.get('x-image-fallback')).toBe('1');
	expect((await next.arrayBuffer()).byteLength).toBeGreaterThan(0);
	await expect.poll(() => server.output()).toContain('site image aborted mid-body');
});

test('an upstream that stalls is given up after the time limit, and the next request falls back', async () => {
	test.setTimeout(60_000);
	const started = Date.now();
	const { response, body } = await readAll(`${server.url}/api/img/macon_about`);
	expect(response.status).toBe(200);
	await expect(body).rejects.toThrow();
	expect(Date.now() - started).toBeLessThan(25_000);
	expect(server.child.exitCode).toBeNull();
	const next = await fetch(`${server.url}/api/img/macon_about`);
	expect(next.headers.get('x-image-fallback')).toBe('1');
	expect((await fetch(`${server.url}/macon`)).status).toBe(200);
});
