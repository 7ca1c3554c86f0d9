import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_CACHE, trackRequest } from './request-log';

/** What the tracker's `afterAnswer` was told, per path. */
interface Told {
	path: string;
	status: number;
	fromPageCache: boolean;
}

let server: Server | null = null;
// The access log's lines (console.log until a server batches its output) are not this test's output.
beforeEach(() => void vi.spyOn(console, 'log').mockImplementation(() => {}));
afterEach(async () => {
	vi.restoreAllMocks();
	await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
	server = null;
});

/** A node:http server whose every request is tracked as the server entry tracks them. */
async function trackedServer(told: Told[]): Promise<string> {
	server = createServer((req, res) => {
		const tracked = trackRequest(req, res, (request, response, fromPageCache) =>
			told.push({ path: request.url ?? '', status: response.statusCode, fromPageCache })
		);
		if (req.url === '/cached') {
			tracked.answeredBy(PAGE_CACHE);
			res.writeHead(200, { 'content-type': 'text/html' }).end('<p>cached</p>');
		} else if (req.url === '/slow') {
			res.writeHead(200, { 'content-type': 'text/html' });
			res.write('<p>the first part');
			// Never ended: the client goes away first.
		} else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>rendered</p>');
	});
	await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('one listener a request', () => {
	it('tells the audience of each answer sent whole, and whether the page cache sent it', async () => {
		const told: Told[] = [];
		const base = await trackedServer(told);
		await (await fetch(`${base}/cached`)).text();
		await (await fetch(`${base}/rendered`)).text();
		await expect.poll(() => told.length).toBe(2);
		expect(told).toEqual([
			{ path: '/cached', status: 200, fromPageCache: true },
			{ path: '/rendered', status: 200, fromPageCache: false }
		]);
	});

	it('tells it nothing of an answer cut short by the client', async () => {
		const told: Told[] = [];
		const base = await trackedServer(told);
		await new Promise<void>((resolve) => {
			const cut = request(`${base}/slow`, (response) => {
				response.once('data', () => {
					cut.destroy();
					resolve();
				});
			});
			cut.on('error', () => {});
			cut.end();
		});
		// The server sees the connection close; a whole answer after it is still told.
		await (await fetch(`${base}/rendered`)).text();
		await expect.poll(() => told.length).toBe(1);
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(told.map((t) => t.path)).toEqual(['/rendered']);
	});
});
