import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { courseMedia } from './course-media';
import { answerOwnPath } from './own-paths';
import type { CourseMediaAnswer } from '../lib/server/http/course-media-bridge';

const SIZE = 8 * 1024 * 1024;
let folder: string;
let server: Server;
let port: number;

beforeAll(async () => {
	folder = mkdtempSync(path.join(tmpdir(), 'course-media-'));
	writeFileSync(path.join(folder, 'lesson.mp4'), Buffer.alloc(SIZE, 7));
	const answer: CourseMediaAnswer = async () => ({
		status: 200,
		headers: { 'content-type': 'video/mp4', 'content-length': String(SIZE) },
		body: null,
		file: { path: path.join(folder, 'lesson.mp4'), start: 0, end: SIZE - 1 }
	});
	server = createServer((req, res) => {
		const media = courseMedia(
			(_req, res) => res.writeHead(404).end(),
			() => answer
		);
		answerOwnPath('/cours/media/[...path]', media, req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	rmSync(folder, { recursive: true, force: true });
});

/** A player that reads `after` bytes then resets the connection (RST, as a phone losing its network does). */
function downloadThenReset(after: number): Promise<void> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.write('GET /cours/media/course/lesson.mp4 HTTP/1.1\r\nHost: x\r\n\r\n');
		let received = 0;
		socket.on('data', (chunk: Buffer) => {
			received += chunk.length;
			if (received > after) {
				socket.resetAndDestroy();
				resolve();
			}
		});
		socket.on('error', () => resolve());
		socket.on('close', () => resolve());
	});
}

it('a download cut midway, many times and at any point, rejects nothing unhandled and the server still answers', async () => {
	const unhandled: unknown[] = [];
	const record = (reason: unknown) => unhandled.push(reason);
	process.on('unhandledRejection', record);
	try {
		for (let round = 0; round < 40; round++) {
			await Promise.all([1, 2, 3, 4].map((n) => downloadThenReset(n * 37_000 + round * 1_000)));
		}
		// Every cut connection closed on the server's side: whatever write was pending has called back (then a
		// turn of the event loop for the callbacks it queued). Waited for, not slept on: a loaded machine is slower.
		await expect
			.poll(() => new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count))))
			.toBe(0);
		await new Promise((resolve) => setImmediate(resolve));
		expect(unhandled).toEqual([]);
		const whole = await fetch(`http://127.0.0.1:${port}/cours/media/course/lesson.mp4`);
		expect((await whole.arrayBuffer()).byteLength).toBe(SIZE);
	} finally {
		process.off('unhandledRejection', record);
	}
});
