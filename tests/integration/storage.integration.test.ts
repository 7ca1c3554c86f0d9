import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsStorage, S3Storage, type Storage } from '../../src/lib/server/storage';
import { startS3, type RunningS3 } from '../helpers/s3';

let s3: RunningS3;
beforeAll(async () => {
	s3 = await startS3();
});
afterAll(() => s3.close());

const origin = new URL('http://127.0.0.1:9');
const makeFs = (now?: () => number) =>
	new FsStorage({
		root: mkdtempSync(path.join(tmpdir(), 'atelier-fs-')),
		bucket: 'private-gallery',
		origin,
		secret: 'k'.repeat(32),
		now
	});
const makeS3 = (bucket = 'private-gallery') =>
	new S3Storage({
		endpoint: s3.endpoint,
		accessKey: s3.accessKey,
		secretKey: s3.secretKey,
		region: 'us-east-1',
		bucket
	});

const drivers: [string, () => Storage][] = [
	['fs', () => makeFs()],
	['s3', () => makeS3()]
];

const text = async (body: NodeJS.ReadableStream) => {
	const chunks: Buffer[] = [];
	for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
	return Buffer.concat(chunks).toString();
};

describe.each(drivers)('%s driver', (_, make) => {
	it('puts, stats, reads and deletes an object with its metadata', async () => {
		const storage = make();
		await storage.put('dir/a.webp', Buffer.from('bonjour'), {
			contentType: 'image/webp',
			cacheControl: 'public, max-age=31536000, immutable'
		});
		const info = await storage.stat('dir/a.webp');
		expect(info).toMatchObject({
			size: 7,
			contentType: 'image/webp',
			cacheControl: 'public, max-age=31536000, immutable'
		});
		expect(info?.etag).toMatch(/^".+"$/);
		const object = await storage.read('dir/a.webp');
		expect(await text(object!.body)).toBe('bonjour');
		await storage.delete('dir/a.webp');
		expect(await storage.stat('dir/a.webp')).toBeNull();
		expect(await storage.read('dir/a.webp')).toBeNull();
	});

	it('refuses paths that could escape the bucket', async () => {
		const storage = make();
		for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a\u0000b', '%2e%2e/x']) {
			await expect(
				storage.put(bad, Buffer.from('x'), { contentType: 'image/webp', cacheControl: '' }),
				bad
			).rejects.toThrow();
			await expect(storage.signedUrl(bad, 60), bad).rejects.toThrow();
		}
	});
});

describe('fs signed URLs', () => {
	it('grant the object until they expire, and nothing else', async () => {
		let now = Date.UTC(2026, 0, 1);
		const storage = makeFs(() => now);
		const url = new URL(await storage.signedUrl('photo.webp', 3600));
		expect(url.pathname).toBe('/storage/private-gallery/photo.webp');
		expect(storage.verifySignedRequest('photo.webp', url.searchParams)).toBe('photo.webp');
		expect(storage.verifySignedRequest('other.webp', url.searchParams)).toBeNull();
		const tampered = new URLSearchParams(url.searchParams);
		tampered.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
		expect(storage.verifySignedRequest('photo.webp', tampered)).toBeNull();
		expect(storage.verifySignedRequest('photo.webp', new URLSearchParams())).toBeNull();
		expect(storage.verifySignedRequest('../secret', url.searchParams)).toBeNull();
		now += 3601 * 1000;
		expect(storage.verifySignedRequest('photo.webp', url.searchParams)).toBeNull();
	});
});

describe('fs signed reads', () => {
	it('answer forbidden, missing, not-modified or found', async () => {
		const storage = makeFs();
		await storage.put('a.webp', Buffer.from('octets'), { contentType: 'image/webp', cacheControl: '' });
		const params = new URL(await storage.signedUrl('a.webp', 60)).searchParams;
		expect((await storage.readSigned('a.webp', new URLSearchParams('exp=1&sig=x'), null)).outcome).toBe(
			'forbidden'
		);
		const found = await storage.readSigned('a.webp', params, null);
		expect(found.outcome).toBe('found');
		if (found.outcome !== 'found') return;
		expect(await text(found.body)).toBe('octets');
		expect((await storage.readSigned('a.webp', params, found.info.etag)).outcome).toBe('not-modified');
		await storage.delete('a.webp');
		expect((await storage.readSigned('a.webp', params, null)).outcome).toBe('missing');
	});
});

// s3rver checks a presigned URL's expiry but implements neither ACLs nor v4 signature checks, so "anonymous
// reads are refused" cannot be shown against it; the driver never attaches a policy, and MinIO/S3 buckets are
// private by default.
describe('s3 bucket', () => {
	it('is created when missing, and serves objects with their metadata through a 1-hour presigned URL', async () => {
		const storage = makeS3(`fresh-${Date.now()}`);
		await storage.put('p.webp', Buffer.from('secret bytes'), {
			contentType: 'image/webp',
			cacheControl: 'public, max-age=31536000, immutable'
		});
		const url = new URL(await storage.signedUrl('p.webp', 3600));
		expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
		const signed = await fetch(url);
		expect(signed.status).toBe(200);
		expect(signed.headers.get('content-type')).toBe('image/webp');
		expect(signed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
		expect(await signed.text()).toBe('secret bytes');
	});

	it('dates each presigned URL the second it is asked for: one signature a second per object, never an older one', async () => {
		const storage = makeS3();
		await storage.put('r.webp', Buffer.from('r'), { contentType: 'image/webp', cacheControl: '' });
		const amzSecond = (url: string) => {
			const date = new URL(url).searchParams.get('X-Amz-Date')!;
			return (
				Date.UTC(
					+date.slice(0, 4),
					+date.slice(4, 6) - 1,
					+date.slice(6, 8),
					+date.slice(9, 11),
					+date.slice(11, 13),
					+date.slice(13, 15)
				) / 1000
			);
		};
		const seconds = new Set<number>();
		for (const deadline = Date.now() + 2500; Date.now() < deadline;) {
			const before = Math.floor(Date.now() / 1000);
			const [first, again, other] = await Promise.all([
				storage.signedUrl('r.webp', 3600),
				storage.signedUrl('r.webp', 3600),
				storage.signedUrl('r.webp', 60)
			]);
			const after = Math.floor(Date.now() / 1000);
			expect(amzSecond(first)).toBeGreaterThanOrEqual(before);
			expect(amzSecond(first)).toBeLessThanOrEqual(after);
			// Asked in the same second, the same URL; another lifetime is another URL.
			if (amzSecond(again) === amzSecond(first)) expect(again).toBe(first);
			expect(new URL(other).searchParams.get('X-Amz-Expires')).toBe('60');
			// What the proxy reads without waiting: the URL made this second, the same string; none for another object.
			if (Math.floor(Date.now() / 1000) === amzSecond(first))
				expect(storage.signedUrlNow('r.webp', 3600)).toBe(first);
			expect(storage.signedUrlNow('never-signed.webp', 3600)).toBeUndefined();
			seconds.add(amzSecond(first));
			await new Promise((r) => setTimeout(r, 100));
		}
		// A new second, a new date (and signature): what is remembered never outlives its second.
		expect(seconds.size).toBeGreaterThanOrEqual(2);
		expect((await fetch(await storage.signedUrl('r.webp', 3600))).status).toBe(200);
	});

	it('refuses a presigned URL once it has expired', async () => {
		const storage = makeS3();
		await storage.put('q.webp', Buffer.from('x'), { contentType: 'image/webp', cacheControl: '' });
		const url = await storage.signedUrl('q.webp', 1);
		await new Promise((r) => setTimeout(r, 2100));
		expect((await fetch(url)).status).toBe(403);
	});
});
