/**
 * The course's files (a lesson's video, its captions, poster and worksheets), answered by the server entry before
 * SvelteKit. A member's video is 100 MB read in ranges; through SvelteKit every chunk crosses a web stream, and
 * `npm run bench media` measured 0.33× a bare node:http server's throughput (0.55× with 512 KB chunks) and the
 * server's RSS up 92–142 MB for 16 members at once. Here the storage's stream is piped to the socket with
 * back-pressure, as the bare server does (the README has the figures).
 *
 * The checks and the answer are the app's own (http/course-media.ts, through the bridge the app sets at start-up):
 * the session, the member's access, the module's rules, the ranges. What the app does not answer — no session, no
 * access, no such file, an error — goes to SvelteKit's route, which answers it as before (a redirect, 403, 404,
 * the outage page). The headers every response carries were set by the entry before this runs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import {
	COURSE_MEDIA_PREFIX,
	exposedCourseMedia,
	type CourseMediaAnswer
} from '../lib/server/http/course-media-bridge';
import type { OwnPath } from './own-paths';

/**
 * The own path (own-paths.ts) for `answer`, the app's, or the one the app exposed at start-up: what the app leaves
 * (no session, no access, no such file, an error) goes on to `fallback`, SvelteKit's route.
 */
export function courseMedia(
	fallback: (req: IncomingMessage, res: ServerResponse) => void,
	answer: () => CourseMediaAnswer | undefined = exposedCourseMedia
): OwnPath {
	return (req, res) => {
		const answerMedia = answer();
		if (!answerMedia || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
		const objectPath = objectPathOf(req.url);
		if (!objectPath) return false;
		return respond(req, res, answerMedia, objectPath, () => fallback(req, res));
	};
}

async function respond(
	req: IncomingMessage,
	res: ServerResponse,
	answer: CourseMediaAnswer,
	objectPath: string,
	fallback: () => void
): Promise<void> {
	let media: Awaited<ReturnType<CourseMediaAnswer>>;
	try {
		media = await answer({ method: req.method!, objectPath, headers: req.headers });
	} catch {
		// SvelteKit's route answers it as before: the outage page, a 503.
		return fallback();
	}
	if (!media) return fallback();
	if (res.destroyed) return;
	if (media.file) {
		res.writeHead(media.status, media.headers);
		// A client gone midway, or a file that shrank: the response is cut, nothing more to say.
		await sendFile(media.file, res).catch(() => res.destroy());
		return;
	}
	const body = media.body ? await media.body() : null;
	if (media.body && !body) return fallback();
	res.writeHead(media.status, media.headers);
	if (!body) return void res.end();
	// A client gone midway destroys the response, and pipeline the storage's stream with it.
	await pipeline(body, res).catch(() => {});
}

const BUFFER_BYTES = 64 * 1024;

/**
 * Bytes `start`–`end` of a file, sent with two buffers used in turn: one is read into while the other is being
 * written, and a buffer is read into again only once the socket has taken what it held (write's callback). A
 * pipe from fs.createReadStream makes a new 64 KB buffer per chunk, freed whenever the collector runs: 16 members
 * on a 100 MB video raised a bare server's RSS by ~90 MB. Here a download holds 128 KB, whatever its length.
 */
async function sendFile(
	{ path, start, end }: { path: string; start: number; end: number },
	res: ServerResponse
): Promise<void> {
	const file = await open(path, 'r');
	// A client gone midway: whatever write is pending may never call back; stop at once.
	const gone = new Promise<never>((_, reject) => res.once('close', () => reject(new Error('client gone'))));
	gone.catch(() => {});
	try {
		const buffers = [Buffer.allocUnsafeSlow(BUFFER_BYTES), Buffer.allocUnsafeSlow(BUFFER_BYTES)];
		let position = start;
		let turn = 0;
		let previous: Promise<void> = Promise.resolve();
		while (position <= end && !res.destroyed) {
			const buffer = buffers[turn++ % 2]!;
			const { bytesRead } = await file.read(buffer, 0, Math.min(BUFFER_BYTES, end - position + 1), position);
			if (bytesRead === 0) throw new Error('file shorter than its size');
			position += bytesRead;
			// This buffer's last write was two turns ago: it has been flushed once `previous` (the other's) is, as
			// the socket writes in order.
			await Promise.race([previous, gone]);
			previous = new Promise<void>((resolve, reject) =>
				res.write(buffer.subarray(0, bytesRead), (error) => (error ? reject(error) : resolve()))
			);
			// A reset connection fails the pending write while the next read is awaited, before anything awaits
			// `previous`: without a handler now, that rejection would be unhandled and stop the process. The
			// next race still sees it.
			previous.catch(() => {});
		}
		await Promise.race([previous, gone]);
		if (!res.destroyed) res.end();
	} finally {
		await file.close();
	}
}

/** `course/<file>` for `/cours/media/course/<file>` with no query; anything else is SvelteKit's. */
function objectPathOf(url: string | undefined): string | null {
	if (!url?.startsWith(COURSE_MEDIA_PREFIX) || url.includes('?') || url.includes('%')) return null;
	return url.slice('/cours/media/'.length);
}
