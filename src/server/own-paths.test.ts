import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { answerOwnPath, ClientGone, readBody, type OwnPath } from './own-paths';

let server: Server;
let port: number;

/** Own paths that fail in each way an answer can. */
const failing: OwnPath = (req, res) => {
	const path = req.url ?? '';
	if (path === '/sync') throw new Error('thrown before any promise');
	if (path === '/rejects') return Promise.reject(new Error('rejected'));
	if (path === '/after-head')
		return (async () => {
			res.writeHead(200, { 'content-length': '100' });
			res.write('partial');
			await new Promise((resolve) => setTimeout(resolve, 10));
			throw new Error('failed midway');
		})();
	return false;
};

beforeAll(async () => {
	server = createServer((req, res) => {
		req.headers['x-request-id'] = 'id-of-the-request';
		if (!answerOwnPath('/test', failing, req, res)) res.writeHead(299).end('not mine');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);

it('a synchronous throw and a rejection are each a 500 with the request id as reference, and the server answers on', async () => {
	for (const path of ['/sync', '/rejects']) {
		const answer = await get(path);
		expect(answer.status, path).toBe(500);
		expect(answer.headers.get('content-type')).toBe('application/problem+json');
		expect((await answer.json()).detail).toBe('Erreur interne (référence id-of-the-request).');
	}
	expect((await get('/other')).status).toBe(299);
});

it('a failure once the head is sent cuts the connection (the client sees a short body), never a second head', async () => {
	await expect(get('/after-head').then((answer) => answer.text())).rejects.toThrow();
	expect((await get('/other')).status).toBe(299);
});

it('a body cut short by its client is nobody to answer: readBody says so (ClientGone), not an error', async () => {
	let local: Server | undefined;
	const outcome = await new Promise<unknown>((resolve) => {
		local = createServer((req) => readBody(req, 1024).then(resolve, resolve));
		local.listen(0, '127.0.0.1', () => {
			const socket = net.connect((local!.address() as net.AddressInfo).port, '127.0.0.1', () => {
				socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc');
				setTimeout(() => socket.destroy(), 30);
			});
		});
	});
	local?.close();
	expect(outcome).toBeInstanceOf(ClientGone);
});
