import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { inRequest, inRequestContext, installProcessPolicy } from './process-policy';

afterEach(() => {
	vi.restoreAllMocks();
});

/** A server whose every request runs `answer` through inRequest, as the entry's do; its address. */
async function serving(answer: (req: IncomingMessage, res: ServerResponse) => void) {
	const server = createServer((req, res) => {
		req.headers['x-request-id'] = 'id-de-la-requete';
		inRequest(req, res, answer);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

it('a synchronous throw in an answer is a 500 naming the request, and the server answers on', async () => {
	const lines: string[] = [];
	vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
	let calls = 0;
	const server = await serving((_req, res) => {
		if (++calls === 1) throw new Error('a bug');
		res.end('ok');
	});
	try {
		const failed = await fetch(server.url);
		expect(failed.status).toBe(500);
		expect((await failed.json()).detail).toContain('id-de-la-requete');
		expect(await (await fetch(server.url)).text()).toBe('ok');
		expect(lines.join('\n')).toMatch(/"answer failed".*"id":"id-de-la-requete"/);
	} finally {
		server.close();
	}
});

it('what escapes to the process is logged with the request it came from; an uncaught exception stops the server with 1', async () => {
	const lines: string[] = [];
	vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
	// Only the listeners the policy adds are looked at: the test runner's own stay out of it.
	const before = new Set(process.listeners('uncaughtException'));
	const stops: [string, number][] = [];
	installProcessPolicy((reason, code) => void stops.push([reason, code]));
	const [uncaught] = process.listeners('uncaughtException').filter((listener) => !before.has(listener));
	const [unhandled] = process.listeners('unhandledRejection').slice(-1);
	// The policy's own listeners only: the test runner's stay as they were.
	const removePolicy = () => {
		process.removeListener('uncaughtException', uncaught!);
		process.removeListener('unhandledRejection', unhandled!);
	};
	const server = await serving((req, res) =>
		// Within the request's context, as the entry runs the app's way (and a throw in its own code would be).
		inRequestContext(req, () => {
			unhandled!(new Error('nobody awaited this'), Promise.resolve());
			uncaught!(new Error('thrown in a listener'), 'uncaughtException');
			res.end('ok');
		})
	);
	try {
		expect(await (await fetch(server.url)).text()).toBe('ok');
		const log = lines.join('\n');
		expect(log).toMatch(/"unhandled rejection".*"id":"id-de-la-requete"/);
		expect(log).toMatch(/"uncaught exception: stopping".*"id":"id-de-la-requete"/);
		expect(stops).toEqual([['uncaughtException', 1]]);
	} finally {
		server.close();
		removePolicy();
	}
});
