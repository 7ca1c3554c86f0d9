/**
 * The image proxy's stored photos (`GET|HEAD /api/img/{key}`), answered by the server entry before SvelteKit. The
 * proxy serves every image of every public page; through SvelteKit each answer crossed a web Request, a web
 * Response and a web stream, and `npm run bench images` measured it at 0.39–0.47× a bare node:http server sending
 * the same bytes (issue « Speed, part 2 »). Here the app's answer (src/lib/server/images/entry-answer.ts, through
 * the bridge the app sets at start-up) is written as the page cache writes its pages: the whole head in one call,
 * the bytes after it.
 *
 * Only a bodiless GET or HEAD is looked at, before anything is set on the response. What the app leaves (null: an
 * unknown key, a stock image, a fallback, a 400…) goes the usual way, to SvelteKit's route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import {
	IMAGE_PROXY_PREFIX,
	exposedImageProxy,
	type ImageProxyAnswer,
	type ImageProxyAnswerParts
} from '../lib/server/http/image-proxy-bridge';
import { REQUEST_ID_HEADER } from '../lib/server/http/request-log';
import type { OwnPath } from './own-paths';

/** The own path (own-paths.ts); `elsewhere` takes what the app leaves, the way every other request goes. */
export function imageProxy(
	elsewhere: (req: IncomingMessage, res: ServerResponse) => void,
	answer: () => ImageProxyAnswer | undefined = exposedImageProxy
): OwnPath {
	return (req, res) => {
		const answerImage = answer();
		if (!answerImage || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
		const url = req.url;
		if (!url?.startsWith(IMAGE_PROXY_PREFIX)) return false;
		// A GET with a body goes the long way (body admission), where its early answer closes the connection.
		if (req.headers['content-length'] || req.headers['transfer-encoding']) return false;
		return respond(req, res, answerImage, url, () => elsewhere(req, res));
	};
}

/**
 * Writes the app's answer, or hands the request on: at once when the app answered at once (true), else once it has
 * (the promise). Whatever failed before a byte was written, the route answers: the photo, or the slot's fallback.
 */
function respond(
	req: IncomingMessage,
	res: ServerResponse,
	answer: ImageProxyAnswer,
	url: string,
	elsewhere: () => void
): true | Promise<void> {
	let parts: ReturnType<ImageProxyAnswer>;
	try {
		parts = answer({ url, head: req.method === 'HEAD', ifNoneMatch: req.headers['if-none-match'] });
	} catch {
		parts = null;
	}
	if (parts instanceof Promise)
		return parts.then(
			(later) => write(req, res, later, elsewhere),
			() => write(req, res, null, elsewhere)
		);
	const written = write(req, res, parts, elsewhere);
	return written ?? true;
}

/** The answer's head in one call, then its bytes; the route's, when the app left it (null). */
function write(
	req: IncomingMessage,
	res: ServerResponse,
	parts: ImageProxyAnswerParts | null,
	elsewhere: () => void
): Promise<void> | undefined {
	if (!parts) return void elsewhere();
	if (res.destroyed) {
		if (parts.body && !Buffer.isBuffer(parts.body)) parts.body.destroy();
		return;
	}
	// The head is the image's, made once; its last value is this request's id, written at once by writeHead.
	const head = parts.head as string[];
	head[head.length - 1] = String(req.headers[REQUEST_ID_HEADER] ?? '');
	res.writeHead(parts.status, head);
	if (!parts.body) return void res.end();
	if (Buffer.isBuffer(parts.body)) {
		// 'close' comes once the bytes are written whole (or the connection is gone): the buffer is free again.
		if (parts.sent) res.once('close', parts.sent);
		return void res.end(parts.body);
	}
	// A client gone midway destroys the response, and pipeline the bucket's stream with it.
	return pipeline(parts.body, res).catch(() => {});
}
