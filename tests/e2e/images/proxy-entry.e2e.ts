/**
 * The image proxy's stored photos as the server entry answers them (src/server/image-proxy.ts, issue « Speed, part
 * 2 »): the same status, headers and bytes as SvelteKit's route gives (a query the quick path does not know sends a
 * request there), a 304 for the ETag, HEAD without a body, the versioned URL cached for good, and a new photo served
 * at once after its PUT — what the quick path kept of the old one is forgotten with the purge. On the files driver
 * and on S3 (s3rver), where answers in the same second go to the bucket at once, through the URL already signed.
 */
import { expect, test } from '@playwright/test';
import { startS3, type RunningS3 } from '../../helpers/s3';
import { firstAdminCookie } from '../support/accounts';
import { setSlotPhoto } from '../support/photos';
import { startIsolatedServer } from '../support/server';

const ADMIN = { name: 'Photos', email: 'photos@exemple.fr', password: 'une phrase de passe solide' };

/**
 * Headers but those of one answer (its id, its date) and the one that says which way answered, sorted: what two ways
 * of answering must share.
 */
const lasting = (headers: Headers) =>
	[...headers]
		.filter(
			([name]) => !['x-request-id', 'date', 'connection', 'keep-alive', 'x-image-answer'].includes(name)
		)
		.sort();

for (const driver of ['files', 's3'] as const)
	test(`a stored photo (${driver}): the entry answers what the route answers (each says which it is), 304 and HEAD, and a new photo at once`, async () => {
		test.setTimeout(90_000);
		const bucket: RunningS3 | null = driver === 's3' ? await startS3() : null;
		const server = await startIsolatedServer(
			bucket
				? {
						STORAGE_DRIVER: 's3',
						S3_ENDPOINT: bucket.endpoint.origin,
						S3_ACCESS_KEY: bucket.accessKey,
						S3_SECRET_KEY: bucket.secretKey,
						S3_REGION: 'us-east-1',
						S3_BUCKET: 'atelier-proxy-entry'
					}
				: {}
		);
		try {
			const cookie = await firstAdminCookie(server.url, ADMIN);
			await setSlotPhoto(server.url, cookie, 'about', 'Landscape_2.jpg');
			const url = `${server.url}/api/img/about?w=480`;
			// The variant is made after the upload's answer: waited for (until then the width is the full image's).
			const etagOf = async (address: string) => {
				const response = await fetch(address);
				await response.arrayBuffer();
				return response.headers.get('etag');
			};
			const fullEtag = await etagOf(`${server.url}/api/img/about`);
			await expect.poll(() => etagOf(url), { timeout: 20_000 }).not.toBe(fullEtag);

			const quick = await fetch(url);
			// An unknown parameter is the route's: SvelteKit answers it, as it answered every request before.
			const route = await fetch(`${url}&route=1`);
			expect(quick.status).toBe(200);
			expect(route.status).toBe(200);
			// Which way answered, said by each: the same answer, two ways (images/answer-plan.ts decides for both).
			expect(quick.headers.get('x-image-answer')).toBe('entry');
			expect(route.headers.get('x-image-answer')).toBe('route');
			expect(lasting(quick.headers)).toEqual(lasting(route.headers));
			// At every width a page offers: the full size and the variant the entry knows are its own; 800 px, which
			// this 600-px photo has no variant of, is the route's (it serves the full size), and says so.
			for (const [query, by] of [
				['', 'entry'],
				['?w=480', 'entry'],
				['?w=800', 'route']
			] as const) {
				const answer = await fetch(`${server.url}/api/img/about${query}`);
				await answer.arrayBuffer();
				expect(answer.status, query).toBe(200);
				expect(answer.headers.get('x-image-answer'), query).toBe(by);
			}
			const bytes = Buffer.from(await quick.arrayBuffer());
			expect(bytes.equals(Buffer.from(await route.arrayBuffer()))).toBe(true);
			// Many at once, most in the same second (on S3 through the URL already signed): every one the same photo.
			const together = await Promise.all(
				Array.from({ length: 24 }, async () => Buffer.from(await (await fetch(url)).arrayBuffer()))
			);
			for (const copy of together) expect(copy.equals(bytes)).toBe(true);
			expect(quick.headers.get('cache-control')).toBe('public, max-age=3300, s-maxage=3300');
			expect(quick.headers.get('content-security-policy')).toContain("default-src 'self'");

			const etag = quick.headers.get('etag')!;
			const revalidated = await fetch(url, { headers: { 'if-none-match': etag } });
			expect(revalidated.status).toBe(304);
			expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
			const head = await fetch(url, { method: 'HEAD' });
			expect(head.status).toBe(200);
			expect(head.headers.get('content-length')).toBe(String(bytes.length));

			// The page's URL, with the value's version: cached for good.
			const page = await (await fetch(`${server.url}/`)).text();
			const versioned = /\/api\/img\/about\?v=([\w-]+)/.exec(page)?.[1];
			if (versioned) {
				const forGood = await fetch(`${server.url}/api/img/about?v=${versioned}&w=480`);
				expect(forGood.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
			}

			// Another photo: served at once, the old one's ETag no longer matches.
			await setSlotPhoto(server.url, cookie, 'about', 'Landscape_3.jpg');
			const full = await fetch(`${server.url}/api/img/about`);
			expect(full.status).toBe(200);
			expect(full.headers.get('etag')).not.toBe(etag);
			expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).not.toBe(304);
		} finally {
			await server.stop();
			await bucket?.close();
		}
	});
