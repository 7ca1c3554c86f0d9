/**
 * The paths the server entry answers itself, before SvelteKit (the course's files, Stripe's webhook, the reminders'
 * one-click unsubscribe): each goes through `answerOwnPath`, the one place that turns what goes wrong in an answer
 * into an answer. SvelteKit has this for its routes (handleError); the entry's own paths had nothing, and one
 * `decodeURIComponent` that threw in a request's `end` listener ended the process for every visitor.
 *
 * So an own path is written as an async function of the request: whatever it throws, synchronously or in its
 * promise, reaches the wrapper, which answers 500 with a reference (problem details) — or, once the head is sent,
 * cuts the connection — and writes one log line naming the request. Nothing an own path does may hand a throw to an
 * event listener: a body is read with `readBody`, which settles a promise instead.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalErrorParts } from '../lib/server/http/problem';
import { REQUEST_ID_HEADER } from '../lib/server/http/request-log';
import { log } from '../lib/server/log';

/**
 * An own path's answer to a request: `false` when the request is not for it (the next one, or SvelteKit, takes
 * it), the answer in progress, or `true` when it answered at once (the image proxy's known photos: a promise per
 * request is a cost there). It decides synchronously from the method and URL alone.
 */
export type OwnPath = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<void>;

/**
 * Runs `ownPath` on the request: false when it is not for it; true when it answers it, whatever happens. A throw or
 * a rejection becomes a 500 with the request's id as its reference (the access log's line carries the same id), or
 * a cut connection when the answer had already begun.
 */
export function answerOwnPath(
	route: string,
	ownPath: OwnPath,
	req: IncomingMessage,
	res: ServerResponse
): boolean {
	let answer: boolean | Promise<void>;
	try {
		answer = ownPath(req, res);
	} catch (error) {
		failed(route, req, res, error);
		return true;
	}
	if (typeof answer === 'boolean') return answer;
	answer.catch((error: unknown) => failed(route, req, res, error));
	return true;
}

function failed(route: string, req: IncomingMessage, res: ServerResponse, error: unknown): void {
	if (error instanceof ClientGone) {
		res.destroy();
		return;
	}
	const id = String(req.headers[REQUEST_ID_HEADER] ?? '');
	log.error('answer failed', { route, id, error });
	if (res.headersSent || res.destroyed) {
		res.destroy();
		return;
	}
	const answer = internalErrorParts(id);
	// A body left unread would keep the connection: closing it is the entry's rule for early answers too.
	if (!req.complete) res.setHeader('connection', 'close');
	res.writeHead(answer.status, answer.headers);
	res.end(answer.body);
}

/**
 * A request's body, whole, or null as soon as it passes `limit` (nothing more is kept: an answer written before
 * the body ended closes the connection — request-bodies.ts). Rejects when the request ends before its body does.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		const settle = (finish: () => void) => {
			if (settled) return;
			settled = true;
			req.off('data', onData);
			finish();
		};
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) return void chunks.push(chunk);
			chunks.length = 0;
			settle(() => resolve(null));
		};
		req.on('data', onData);
		req.once('end', () => settle(() => resolve(Buffer.concat(chunks, size))));
		// Kept after settling: a late error of the request stays handled. A request cut short fails with « aborted »
		// (or a reset): the client is gone, which is no error of ours.
		req.on('error', (error) => settle(() => reject(req.complete ? error : new ClientGone())));
		req.once('close', () => {
			if (!req.complete) settle(() => reject(new ClientGone()));
		});
	});
}

/** The client went away before its request was whole: there is nobody to answer. */
export class ClientGone extends Error {
	constructor() {
		super('request closed before its body ended');
	}
}

/** A path segment's text, or null when its `%` escapes are not UTF-8 (`%E0%A4%A`): no such resource. */
export function decodedSegment(segment: string): string | null {
	try {
		return decodeURIComponent(segment);
	} catch {
		return null;
	}
}
