/**
 * A deliberately broken image upstream on loopback, over real sockets. What it does with a GET depends on a word
 * in the path: `cut` sends the headers and part of the body, then destroys the connection; `stall` sends the
 * headers and part of the body, then nothing more; `error` answers 500; anything else the whole image. A HEAD
 * answers like a healthy S3 server's HEAD object (what the minio client's statObject asks), so that the s3 driver
 * can point at it. Every GET is counted by path, to show which requests reached the upstream at all.
 */
import { createServer, type ServerResponse } from 'node:http';

export interface HostileUpstream {
	/** `127.0.0.1:<port>`, as IMAGE_REMOTE_HOSTS lists it. */
	host: string;
	url: string;
	/** GETs received for this path (no query). */
	hits(path: string): number;
	close(): Promise<void>;
}

/** Bytes sent before a `cut` or `stall` answer breaks off. */
export const PARTIAL_BYTES = 16 * 1024;

export async function startHostileUpstream(image: Buffer): Promise<HostileUpstream> {
	const hits = new Map<string, number>();
	const held = new Set<ServerResponse>();
	const headers = {
		'content-type': 'image/webp',
		'content-length': String(image.length),
		etag: '"hostile-1"',
		'last-modified': new Date(0).toUTCString()
	};
	const server = createServer((req, res) => {
		const path = new URL(req.url ?? '/', 'http://x').pathname;
		if (req.method === 'HEAD') return res.writeHead(200, headers).end();
		hits.set(path, (hits.get(path) ?? 0) + 1);
		if (path.includes('error')) return res.writeHead(500).end();
		res.writeHead(200, headers);
		if (path.includes('cut')) {
			res.write(image.subarray(0, PARTIAL_BYTES), () => res.socket?.destroy());
			return;
		}
		if (path.includes('stall')) {
			res.write(image.subarray(0, PARTIAL_BYTES));
			held.add(res);
			res.on('close', () => held.delete(res));
			return;
		}
		res.end(image);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		host: `127.0.0.1:${port}`,
		url: `http://127.0.0.1:${port}`,
		hits: (path) => hits.get(path) ?? 0,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	};
}
