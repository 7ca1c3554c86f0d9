/**
 * The paths the server entry answers itself, before SvelteKit (issue « Every door holds », point 1), driven with what
 * an attacker sends — broken `%` escapes, odd methods, cut and oversized bodies, NUL bytes, hostile `Range` and tus
 * headers — against the built server: every request gets an answer (or, for a cut body, nothing to answer), never
 * a 5xx, and the server is the same process afterwards, with nothing at error in its log. One broken escape after
 * `/rappels/` ended the process before (`decodeURIComponent` threw in a request's `end` listener).
 */
import { expect, test } from '@playwright/test';
import net from 'node:net';
import { requestHead } from '../support/raw-http';
import { firstAdminCookie } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';
import { startFakeStripe } from '../../helpers/fake-stripe';

const ADMIN = { name: 'Admin Fuzz', email: 'fuzz@exemple.fr', password: 'une phrase de passe solide' };

/**
 * Sends a request on a connection of its own, byte for byte; the status of the answer's first line, or null when
 * the client cuts its body short (`cutAfter` bytes of it sent, then the socket destroyed) or the server closes
 * without a word.
 */
function raw(server: RunningServer, head: string, body: Buffer, cutAfter?: number): Promise<number | null> {
	const { hostname, port } = new URL(server.url);
	return new Promise((resolve) => {
		const socket = net.connect(Number(port), hostname);
		let received = '';
		const done = (status: number | null) => {
			socket.destroy();
			resolve(status);
		};
		const timer = setTimeout(() => done(null), 10_000);
		socket.on('connect', () => {
			socket.write(head);
			if (cutAfter === undefined) return void socket.write(body);
			socket.write(body.subarray(0, cutAfter));
			setTimeout(() => {
				clearTimeout(timer);
				done(null);
			}, 20);
		});
		socket.on('data', (chunk: Buffer) => {
			received += chunk.toString('latin1');
			const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
			if (status) {
				clearTimeout(timer);
				done(Number(status[1]));
			}
		});
		socket.on('error', () => {});
		socket.on('close', () => {
			clearTimeout(timer);
			resolve(null);
		});
	});
}

test('every path the entry answers itself takes hostile requests: answers, no 5xx, the same process, nothing at error', async () => {
	test.setTimeout(180_000);
	// Payments on (a fake Stripe that speaks its HTTP), so that the webhook verifies what it gets.
	const stripe = await startFakeStripe();
	const server = await startIsolatedServer({ ...stripe.env });
	const pid = server.child.pid;
	try {
		const cookie = await firstAdminCookie(server.url, ADMIN);

		const statuses: number[] = [];
		let sent = 0;
		const expectAnswer = (what: string, status: number | null) => {
			sent++;
			if (status !== null) statuses.push(status);
			expect(status === null || status < 500, `${what}: ${status}`).toBe(true);
		};
		const send = async (
			method: string,
			target: string,
			headers: Record<string, string> = {},
			body: string | Buffer = ''
		) => {
			const length = Buffer.byteLength(body);
			const head = requestHead(method, target, server.url, {
				...(length || method === 'POST' || method === 'PATCH' ? { 'content-length': String(length) } : {}),
				...headers
			});
			const status = await raw(server, head, Buffer.from(body));
			// Only a cut request may go unanswered.
			expect(status, `${method} ${target}: no answer`).not.toBeNull();
			expectAnswer(`${method} ${target}`, status);
		};
		const cut = async (method: string, target: string, headers: Record<string, string>, body: string) => {
			const head = requestHead(method, target, server.url, {
				'content-length': String(Buffer.byteLength(body) * 10),
				...headers
			});
			expectAnswer(
				`${method} ${target} (cut)`,
				await raw(server, head, Buffer.from(body), Math.floor(body.length / 2))
			);
		};

		const brokenEscapes = [
			'%E0%A4%A',
			'%',
			'%%',
			'%zz',
			'%C0%AF',
			'%ED%A0%80',
			'a%00b',
			'%FF%FE',
			'..%2F..%2Fetc'
		];
		const oddMethods = ['PUT', 'DELETE', 'PATCH', 'PROPFIND', 'OPTIONS', 'TRACE', 'HEAD', 'GET'];
		const form = { 'content-type': 'application/x-www-form-urlencoded' };

		// The reminders' one-click unsubscribe.
		for (const escape of brokenEscapes) {
			await send('POST', `/rappels/${escape}`, form, 'List-Unsubscribe=One-Click');
			await send('GET', `/rappels/${escape}`);
		}
		for (const method of oddMethods) await send(method, '/rappels/un-jeton', form, 'x');
		await send('POST', '/rappels/un-jeton', form, 'x'.repeat(64 * 1024));
		await send('POST', '/rappels/un-jeton', form, 'List-Unsubscribe=One-Click\u0000\u0000');
		await cut('POST', '/rappels/un-jeton', form, 'List-Unsubscribe=One-Click');
		await send(
			'POST',
			'/rappels/un-jeton',
			{ ...form, 'transfer-encoding': 'chunked' },
			'5\r\nabcde\r\n0\r\n\r\n'
		);

		// Stripe's webhook.
		const json = { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' };
		for (const body of [
			'{',
			'[]',
			'null',
			'"\u0000"',
			'{"type":"checkout.session.completed"}',
			'\u0000'.repeat(100)
		])
			await send('POST', '/api/payments/webhook', json, body);
		await send('POST', '/api/payments/webhook', json, '{"a":"' + 'x'.repeat(2 * 1024 * 1024) + '"}');
		await cut('POST', '/api/payments/webhook', json, '{"id":"evt_1","type":"checkout.session.completed"}');
		for (const method of oddMethods) await send(method, '/api/payments/webhook', json, '{}');
		for (const escape of brokenEscapes) await send('POST', `/api/payments/webhook?${escape}`, json, '{}');

		// The course's files: hostile ranges, escapes and validators, as a visitor and as a signed-in admin.
		const ranges = [
			'bytes=-99999999999999999999',
			'bytes=99999999999999999999-',
			'bytes=9007199254740993-9007199254740999',
			'bytes=0-1,2-3,4-5',
			'bytes=5-1',
			'bytes=--1',
			'bytes=\u0000-',
			'items=0-1',
			'bytes=' + '9'.repeat(5000)
		];
		for (const who of [{}, { cookie }] as Record<string, string>[]) {
			for (const range of ranges)
				await send('GET', '/cours/media/course/00000000-0000-4000-8000-000000000000.mp4', {
					...who,
					range,
					'if-range': 'Thu, 01 Jan 2099 00:00:00 GMT'
				});
			for (const escape of brokenEscapes) await send('GET', `/cours/media/course/${escape}`, who);
			for (const method of oddMethods)
				await send(method, '/cours/media/course/00000000-0000-4000-8000-000000000000.mp4', who);
		}

		// tus, as the admin: versions, lengths, offsets and metadata no client should send.
		const tus = { cookie, origin: server.url, 'tus-resumable': '1.0.0' };
		const created = await fetch(`${server.url}/api/admin/uploads`, {
			method: 'POST',
			headers: {
				...tus,
				'upload-length': '1000',
				'upload-metadata': `kind ${Buffer.from('video').toString('base64')}`
			}
		});
		expect(created.status).toBe(201);
		const upload = new URL(created.headers.get('location')!, server.url).pathname;
		for (const headers of [
			{ 'tus-resumable': '0.2.2' },
			{ 'tus-resumable': '' },
			{ 'upload-offset': '-1' },
			{ 'upload-offset': '99999999999999999999' },
			{ 'upload-offset': 'abc' },
			{ 'upload-offset': '0', 'content-type': 'text/plain' },
			{ 'upload-offset': '0', 'upload-length': '1e30' },
			{ 'upload-offset': '0', 'upload-checksum': 'md5 \u0000' }
		] as Record<string, string>[])
			await send(
				'PATCH',
				upload,
				{ ...tus, 'content-type': 'application/offset+octet-stream', ...headers },
				Buffer.alloc(100)
			);
		for (const headers of [
			{ 'upload-length': '-5' },
			{ 'upload-length': '99999999999999999999999' },
			{ 'upload-length': '10', 'upload-metadata': 'kind %%%,,, filename' },
			{ 'upload-length': '10', 'upload-metadata': `kind ${Buffer.from('video\u0000').toString('base64')}` },
			{ 'upload-defer-length': '1' }
		] as Record<string, string>[])
			await send('POST', '/api/admin/uploads', { ...tus, ...headers });
		for (const escape of brokenEscapes) await send('HEAD', `/api/admin/uploads/${escape}`, tus);
		await cut(
			'PATCH',
			upload,
			{ ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
			'x'.repeat(500)
		);
		await send('OPTIONS', '/api/admin/uploads', tus);

		// Metrics and the probes, with odd methods and credentials.
		for (const target of ['/metrics', '/healthz', '/readyz'])
			for (const method of oddMethods) await send(method, target, { authorization: 'Bearer \u0000%E0%A4%A' });

		// The same process, still answering, and nothing at error in its log.
		expect(server.child.exitCode).toBeNull();
		expect(server.child.pid).toBe(pid);
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
		const errors = server
			.output()
			.split('\n')
			.filter((line) => line.includes('"level":"error"'));
		expect(errors).toEqual([]);
		test.info().annotations.push({
			type: 'requests',
			description: `${sent} requests on the entry's own paths, ${statuses.length} answered, no 5xx`
		});
		console.log(
			`own paths: ${sent} hostile requests, ${statuses.length} answered (the rest cut by the client)`
		);
	} finally {
		expect(await server.stop()).toBe(0);
		await stripe.close();
	}
});
