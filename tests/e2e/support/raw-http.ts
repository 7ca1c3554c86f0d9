/**
 * A bare HTTP/1.1 client on one TCP connection, for tests about connections themselves: it writes exactly the
 * bytes it is given (a head, a body, chunks) and reads answers one after the other from the same socket, so a
 * test can see whether a keep-alive connection still answers after an early answer, or was closed.
 */
import net from 'node:net';

export interface RawResponse {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

export class RawConnection {
	private buffer = Buffer.alloc(0);
	private ended = false;
	private wake: (() => void) | null = null;
	/** Resolves when the socket is closed, whatever the reason. */
	readonly closed: Promise<void>;

	private constructor(private readonly socket: net.Socket) {
		socket.on('data', (chunk: Buffer) => {
			this.buffer = Buffer.concat([this.buffer, chunk]);
			this.wake?.();
		});
		// A write refused because the server closed its side is not this client's concern: it reads the answer.
		socket.on('error', () => {});
		this.closed = new Promise((resolve) =>
			socket.once('close', () => {
				this.ended = true;
				this.wake?.();
				resolve();
			})
		);
		socket.on('end', () => {
			this.ended = true;
			this.wake?.();
		});
	}

	static open(base: string): Promise<RawConnection> {
		const url = new URL(base);
		return new Promise((resolve, reject) => {
			const socket = net.connect(Number(url.port), url.hostname, () => {
				socket.off('error', reject);
				resolve(new RawConnection(socket));
			});
			socket.once('error', reject);
		});
	}

	write(data: string | Buffer): void {
		if (!this.socket.destroyed && this.socket.writable) this.socket.write(data);
	}

	/** Writes a body in HTTP/1.1 chunked encoding, in pieces of `size` bytes, then the last chunk. */
	writeChunked(body: Buffer, size = 64 * 1024): void {
		for (let at = 0; at < body.length; at += size) {
			const piece = body.subarray(at, at + size);
			this.write(
				Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
			);
		}
		this.write('0\r\n\r\n');
	}

	/** Half-closes the connection (TCP FIN): nothing more is sent, answers are still read. */
	endWriting(): void {
		this.socket.end();
	}

	get isClosed(): boolean {
		return this.socket.destroyed || this.ended;
	}

	/** The next answer on this connection; rejects when the connection ends first or after `timeoutMs`. */
	async response(timeoutMs = 10_000): Promise<RawResponse> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const parsed = this.parse();
			if (parsed) return parsed;
			if (this.ended) throw new Error('the connection ended before a complete answer');
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`no answer within ${timeoutMs} ms`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, left);
				this.wake = () => {
					clearTimeout(timer);
					resolve();
				};
			});
			this.wake = null;
		}
	}

	/** Resolves true when the socket closes within `timeoutMs`, false otherwise. */
	async closesWithin(timeoutMs: number): Promise<boolean> {
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
		const closed = await Promise.race([this.closed.then(() => true as const), timeout]);
		clearTimeout(timer);
		return closed;
	}

	destroy(): void {
		this.socket.destroy();
	}

	/** Takes one complete answer off the buffer, or returns null when it has not all arrived yet. */
	private parse(): RawResponse | null {
		const end = this.buffer.indexOf('\r\n\r\n');
		if (end < 0) return null;
		const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
		const status = Number(statusLine!.split(' ')[1]);
		const headers: Record<string, string> = {};
		for (const line of lines) {
			const colon = line.indexOf(':');
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		let rest = this.buffer.subarray(end + 4);
		let body: Buffer;
		if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
			const pieces: Buffer[] = [];
			for (;;) {
				const lineEnd = rest.indexOf('\r\n');
				if (lineEnd < 0) return null;
				const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
				if (rest.length < lineEnd + 2 + size + 2) return null;
				pieces.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
				rest = rest.subarray(lineEnd + 2 + size + 2);
				if (size === 0) break;
			}
			body = Buffer.concat(pieces);
		} else {
			const length = status === 204 || status === 304 ? 0 : Number(headers['content-length'] ?? 0);
			if (rest.length < length) return null;
			body = rest.subarray(0, length);
			rest = rest.subarray(length);
		}
		this.buffer = Buffer.from(rest);
		return { status, headers, body };
	}
}

/** The head of a request, with the Host header and `headers`; the body is written separately. */
export function requestHead(method: string, target: string, base: string, headers: Record<string, string>) {
	const lines = [`${method} ${target} HTTP/1.1`, `Host: ${new URL(base).host}`];
	for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
	return lines.join('\r\n') + '\r\n\r\n';
}
