/**
 * A small load balancer for the fleet's test (tests/e2e/operations/fleet.e2e.ts): each request goes to the next
 * instance in turn, as nginx's or HAProxy's round robin sends them — no stickiness. It does what the README asks of a
 * proxy in front of Atelier: it passes `Host` and appends the client's address to `X-Forwarded-For` (the instances run
 * with `ADDRESS_HEADER=X-Forwarded-For`, `XFF_DEPTH=1`). For the test only: `x-fleet-client` stands for the client's
 * address (so one machine is many visitors), `x-fleet-to: N` pins a request to instance N. An instance that does not
 * answer gets the client a 502, as a real balancer's failed upstream does.
 */
import { request as httpRequest, createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';

export interface RoundRobin {
	url: string;
	/** Which instance answered each request, in order: the test checks it spread them. */
	served: number[];
	close(): Promise<void>;
}

export async function startRoundRobin(upstreams: readonly string[]): Promise<RoundRobin> {
	let next = 0;
	const served: number[] = [];
	const server = createServer((req, res) => {
		const pinned = req.headers['x-fleet-to'];
		const index = pinned !== undefined ? Number(pinned) : next++ % upstreams.length;
		served.push(index);
		const target = new URL(upstreams[index]!);
		const headers: IncomingHttpHeaders = { ...req.headers };
		const client = (req.headers['x-fleet-client'] as string | undefined) ?? req.socket.remoteAddress ?? '';
		delete headers['x-fleet-client'];
		delete headers['x-fleet-to'];
		headers['x-forwarded-for'] = client;
		const upstream = httpRequest({
			host: target.hostname,
			port: target.port,
			method: req.method,
			path: req.url,
			headers
		});
		upstream.on('response', (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			pipeline(answer, res).catch(() => res.destroy());
		});
		upstream.on('error', () => {
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
			else res.destroy();
		});
		pipeline(req, upstream).catch(() => upstream.destroy());
	});
	server.keepAliveTimeout = 1_000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		served,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
