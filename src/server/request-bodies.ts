/**
 * The entry's part in request bodies, for every route, before SvelteKit sees them:
 *
 * - A body past its route's limit (body-limits.ts) is refused with 413 before anything of it is buffered: at
 *   once when its Content-Length says so, as it arrives when it is chunked.
 * - An answer written before the request's body was read (a 401, 403, 413 or 415 from SvelteKit, say) closes
 *   the connection. Otherwise the unread body would stay in the socket, adapter-node having paused it, and the
 *   next request on that keep-alive connection would never be read — nor answered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import {
	DEFAULT_BODY_LIMIT,
	UPLOAD_BODY_LIMIT,
	bodyLimit,
	declaredLength,
	payloadTooLarge
} from '../lib/server/http/body-limits';

/**
 * How long a closing connection keeps reading (and dropping) what the client still sends, at most, and how much
 * of it: as much as the largest body any route takes, so that a client sending an upload in full (a browser, or
 * fetch, which fails the whole request when it cannot finish writing its body) can still read our answer.
 * Dropping costs no memory; the time bound keeps a slow client from holding the connection.
 */
const LINGER_MS = 2_000;
const LINGER_BYTES = UPLOAD_BODY_LIMIT;

/**
 * Calls `pass` with the request to hand to SvelteKit — the request itself, or for a chunked body, a copy
 * carrying the body read here — or answers 413 itself, with `headers` too, and never calls it.
 */
export function admitBody(
	req: IncomingMessage,
	res: ServerResponse,
	headers: [string, string][],
	pass: (request: IncomingMessage) => void
): void {
	const refuse = (limit: number) => {
		const answer = payloadTooLarge(limit);
		res.writeHead(answer.status, { ...Object.fromEntries(headers), ...answer.headers });
		res.end(answer.body);
	};
	// Most requests (every page and image GET) carry no body: nothing to admit, and no URL to parse for a limit.
	if (!hasBody(req)) {
		pass(req);
		return;
	}
	closeAfterEarlyAnswer(req, res);
	const limit = bodyLimit(req.method, req.url);
	const declared = declaredLength(req.headers['content-length']);
	if (declared !== null) {
		if (declared > limit) refuse(limit);
		else pass(req);
		return;
	}
	if (req.headers['transfer-encoding'] === undefined || req.complete) {
		pass(req);
		return;
	}
	// A chunked body says nothing of its size, and adapter-node counts it against its one global limit only
	// (sized for the upload). The upload routes stream their body to busboy, which stops at the file's limit,
	// with adapter-node's limit behind it; every other route's body is small enough to be read here first,
	// counted as it arrives, and handed on whole, with its length.
	if (limit > DEFAULT_BODY_LIMIT) {
		pass(req);
		return;
	}
	const chunks: Buffer[] = [];
	let size = 0;
	const onData = (chunk: Buffer) => {
		size += chunk.length;
		if (size <= limit) {
			chunks.push(chunk);
			return;
		}
		req.off('data', onData);
		req.off('end', onEnd);
		chunks.length = 0;
		refuse(limit);
	};
	const onEnd = () => pass(withBody(req, Buffer.concat(chunks)));
	req.on('data', onData);
	req.on('end', onEnd);
	// A client gone mid-body: nothing to answer.
	req.on('error', () => req.off('end', onEnd));
}

/**
 * Marks any answer that starts while the request's body has not been fully received with `Connection: close`,
 * and closes the connection once the answer is written — gently: the client is most likely still sending,
 * and a socket closed on unread data answers it with a reset, which can make it lose our answer. So the
 * connection first sends its end, then reads and drops what still comes for a moment, then closes.
 */
/** For a request with a body (the caller checked `hasBody`). */
function closeAfterEarlyAnswer(req: IncomingMessage, res: ServerResponse): void {
	let early = false;
	// Node has no event before the head goes out: the head is written by writeHead, or by the first write or
	// end through it — the place where `Connection: close` can still be added.
	const writeHead = res.writeHead;
	res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
		if (!req.complete && !this.headersSent) {
			early = true;
			this.setHeader('connection', 'close');
		}
		return writeHead.apply(this, args);
	} as typeof writeHead;
	res.once('finish', () => {
		if (early) linger(req);
	});
}

function hasBody(req: IncomingMessage): boolean {
	const declared = declaredLength(req.headers['content-length']);
	return (declared !== null && declared > 0) || req.headers['transfer-encoding'] !== undefined;
}

/**
 * With `Connection: close`, Node ends the socket once the answer is flushed and destroys it as soon as that end
 * is written. Destroy it instead when the rest of the body has been read and dropped, when LINGER_BYTES more
 * have come, or after LINGER_MS — whichever comes first; a worker never holds more than one chunk of it.
 */
function linger(req: IncomingMessage): void {
	const socket = req.socket;
	if (socket.destroyed) return;
	socket.removeListener('finish', socket.destroy);
	let dropped = 0;
	const close = () => {
		clearTimeout(timer);
		socket.destroy();
	};
	const timer = setTimeout(close, LINGER_MS);
	timer.unref();
	socket.once('close', () => clearTimeout(timer));
	// Whoever was reading the body (adapter-node, for a request SvelteKit answered without reading it) is done.
	req.removeAllListeners('data');
	req.on('data', (chunk: Buffer) => {
		dropped += chunk.length;
		if (dropped > LINGER_BYTES) close();
	});
	req.once('end', close);
	req.resume();
}

/** A stand-in for a request whose chunked body was read by the entry: the same request, with a known length. */
function withBody(req: IncomingMessage, body: Buffer): IncomingMessage {
	const headers = { ...req.headers, 'content-length': String(body.length) };
	delete headers['transfer-encoding'];
	// A replay of the body SvelteKit's adapter reads as it reads the request: only the stream and the headers are used.
	const copy = Readable.from(body.length ? [body] : []) as unknown as IncomingMessage;
	return Object.assign(copy, {
		headers,
		method: req.method,
		url: req.url,
		httpVersion: req.httpVersion,
		httpVersionMajor: req.httpVersionMajor,
		httpVersionMinor: req.httpVersionMinor,
		rawHeaders: req.rawHeaders,
		socket: req.socket,
		connection: req.socket,
		complete: true
	});
}
