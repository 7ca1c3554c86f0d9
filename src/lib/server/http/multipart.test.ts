import { describe, expect, it } from 'vitest';
import { PayloadTooLargeError, ValidationError } from '../errors';
import { readSingleFile } from './multipart';

const BOUNDARY = '----atelier-test-boundary';
const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
const tail = `\r\n--${BOUNDARY}--\r\n`;
const payload = Buffer.alloc(200_000, 7);

function requestOf(body: BodyInit, boundary = BOUNDARY) {
	return new Request('http://localhost/api/admin/upload', {
		method: 'POST',
		headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
		body,
		duplex: 'half'
	} as RequestInit);
}

/** A body sent in small pieces, optionally failing (a client gone) after `failAfter` pieces. */
function streamOf(bytes: Buffer, { failAfter }: { failAfter?: number } = {}) {
	let sent = 0;
	return new ReadableStream<Uint8Array>({
		pull(controller) {
			if (failAfter !== undefined && sent / 16_384 >= failAfter) {
				controller.error(new Error('aborted'));
				return;
			}
			if (sent >= bytes.length) return controller.close();
			controller.enqueue(bytes.subarray(sent, sent + 16_384));
			sent += 16_384;
		}
	});
}

describe('readSingleFile', () => {
	it('reads a whole file', async () => {
		const file = await readSingleFile(
			requestOf(Buffer.concat([Buffer.from(head), payload, Buffer.from(tail)])),
			'file',
			1e6
		);
		expect(file.data.equals(payload)).toBe(true);
		expect(file.mimeType).toBe('image/jpeg');
	});

	it.each([
		['a body that ends before its closing boundary', Buffer.concat([Buffer.from(head), payload])],
		['a body cut inside the part headers', Buffer.from(head.slice(0, 40))],
		['a body of garbage', Buffer.from('this is not multipart at all\r\n\r\n')],
		['an empty body', Buffer.alloc(0)]
	])('answers %s with a 400, and no unhandled error', async (_, body) => {
		const error = await readSingleFile(requestOf(streamOf(body)), 'file', 1e6).catch((e) => e);
		expect(error).toBeInstanceOf(ValidationError);
		expect(error.status).toBe(400);
	});

	it('answers a client gone mid-upload with a 400 (that nobody reads) and no unhandled error', async () => {
		const body = Buffer.concat([Buffer.from(head), payload, Buffer.from(tail)]);
		const error = await readSingleFile(requestOf(streamOf(body, { failAfter: 3 })), 'file', 1e6).catch(
			(e) => e
		);
		expect(error).toBeInstanceOf(ValidationError);
	});

	it('stops at the limit with 413 and keeps reading what the client still sends', async () => {
		const body = Buffer.concat([Buffer.from(head), payload, Buffer.from(tail)]);
		let pulled = 0;
		const stream = streamOf(body);
		const reader = stream.getReader();
		const counted = new ReadableStream<Uint8Array>({
			async pull(controller) {
				const { done, value } = await reader.read();
				if (done) return controller.close();
				pulled += value.length;
				controller.enqueue(value);
			}
		});
		const error = await readSingleFile(requestOf(counted), 'file', 50_000).catch((e) => e);
		expect(error).toBeInstanceOf(PayloadTooLargeError);
		// The rest is read and dropped, so that a client still sending can read the 413.
		await expect.poll(() => pulled).toBe(body.length);
	});

	it('refuses a body that is not multipart with 415', async () => {
		const request = new Request('http://localhost/x', {
			method: 'POST',
			body: 'x',
			headers: { 'content-type': 'text/plain' }
		});
		await expect(readSingleFile(request, 'file', 1e6)).rejects.toMatchObject({ status: 415 });
	});
});
