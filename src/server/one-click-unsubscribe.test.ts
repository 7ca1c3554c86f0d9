import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { oneClickUnsubscribe } from './one-click-unsubscribe';
import { answerOwnPath } from './own-paths';

const GOOD = 'un-jeton-valide';
const asked: string[] = [];
let server: Server;
const unsubscribe = oneClickUnsubscribe(() => async (token) => {
	asked.push(token);
	if (token === 'panne') throw new Error('database down');
	return token === GOOD;
});
let port: number;

beforeAll(async () => {
	server = createServer((req, res) => {
		const answered = answerOwnPath('/rappels/[token]', unsubscribe, req, res);
		// What the entry leaves goes on to SvelteKit: here, a 299 that says so.
		if (!answered) res.writeHead(299).end('to SvelteKit');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const post = (path: string, body = 'List-Unsubscribe=One-Click') =>
	fetch(`http://127.0.0.1:${port}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body
	});

it('a mail provider’s one-click POST (no Origin header) turns the reminders off; a bad token is a 404', async () => {
	const done = await post(`/rappels/${GOOD}`);
	expect(done.status).toBe(200);
	expect(await done.text()).toBe('Vous ne recevrez plus de rappels.');
	expect(done.headers.get('cache-control')).toBe('no-store');
	expect((await post('/rappels/autre')).status).toBe(404);
	expect(asked).toEqual([GOOD, 'autre']);
});

it('a person’s GET, and every other path, go on to SvelteKit', async () => {
	expect((await fetch(`http://127.0.0.1:${port}/rappels/${GOOD}`)).status).toBe(299);
	expect((await post('/contact')).status).toBe(299);
});

it('a body too long is refused without asking; a body cut short leaves the server answering', async () => {
	const before = asked.length;
	expect((await post(`/rappels/${GOOD}`, 'x'.repeat(5000))).status).toBe(413);
	expect(asked.length).toBe(before);
	await new Promise<void>((resolve) => {
		const socket = net.connect(port, '127.0.0.1', () => {
			socket.write(`POST /rappels/${GOOD} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nList-Un`);
			setTimeout(() => {
				socket.destroy();
				resolve();
			}, 50);
		});
	});
	expect((await post(`/rappels/${GOOD}`)).status).toBe(200);
});

it('a broken escape in the token is a 404, and the server goes on answering (it ended the process, before)', async () => {
	const before = asked.length;
	for (const path of ['/rappels/%E0%A4%A', '/rappels/%', '/rappels/%zz', '/rappels/a%ED%A0%80'])
		expect((await post(path)).status, path).toBe(404);
	expect(asked.length).toBe(before);
	expect((await post(`/rappels/${GOOD}`)).status).toBe(200);
});

it('an answer that fails is a 503 in French, not a rejection left to the process', async () => {
	const answer = await post('/rappels/panne');
	expect(answer.status).toBe(503);
	expect(await answer.text()).toBe('Réessayez dans un instant.');
});
