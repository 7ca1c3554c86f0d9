import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { IMAGE_WIDTHS, srcsetOf } from '../../src/lib/images';
import { serveSlot, serveSlotImage, type ImageRequest } from '../../src/lib/server/images/proxy';
import { sizedValue } from '../../src/lib/server/images/answer-plan';
import { versionOf } from '../../src/lib/server/images/slot-values';
import { storeUpload } from '../../src/lib/server/images/upload';
import { STALL_TIMEOUT_MS } from '../../src/lib/server/images/remote';
import { imagesOfPage, setSiteImage, listSiteImages } from '../../src/lib/server/images/service';
import { slotOf } from '../../src/lib/server/images/slots';
import { onPurge } from '../../src/lib/server/pages/cache';
import { FsStorage, S3Storage, type Storage } from '../../src/lib/server/storage';
import { variantPath } from '../../src/lib/server/imaging/variants';
import { contentEntries } from '../../src/lib/server/db/schema';
import { eq } from 'drizzle-orm';
import { ValidationError } from '../../src/lib/server/errors';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { fixture } from '../helpers/fixtures';
import { startS3, type RunningS3 } from '../helpers/s3';

/** A photo's name as the upload pipeline gives it. */
const NEW_PHOTO = '5f1d0c2e-8a9b-4c7d-9e0f-1a2b3c4d5e6f';
const jpeg = readFileSync(fixture('Landscape_1.jpg'));
const photo = readFileSync(fixture('2569067123_aca715a2ee_o.jpg'));
const bundledMacon = readFileSync('src/lib/server/images/fallback/macon.webp');

let s3: RunningS3;
let upstream: Server;
let upstreamHost: string;
let database: TestDatabase;
const stalled: import('node:http').ServerResponse[] = [];

beforeAll(async () => {
	s3 = await startS3();
	database = await createTestDatabase();
	upstream = createServer((req, res) => {
		const route = req.url ?? '';
		if (route.startsWith('/ok')) {
			res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length, etag: '"up-1"' });
			return res.end(jpeg);
		}
		if (route.startsWith('/to-ok')) return res.writeHead(302, { location: '/ok-after-redirect.jpg' }).end();
		if (route.startsWith('/to-metadata'))
			return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
		if (route.startsWith('/to-loopback-name'))
			return res.writeHead(302, { location: `http://localhost:${port()}/ok.jpg` }).end();
		if (route.startsWith('/loop'))
			return res.writeHead(302, { location: `/loop${Number(route.slice(5, 6) || 0) + 1}` }).end();
		if (route.startsWith('/cut') || route.startsWith('/private-gallery/cut-')) {
			// Headers and a first part of the body, then the connection dies.
			res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
			res.write(jpeg.subarray(0, 4096), () => setTimeout(() => res.socket?.destroy(), 20));
			return;
		}
		if (route.startsWith('/stall')) {
			// Headers and a first part, then nothing more: the connection stays open, silent.
			res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
			res.write(jpeg.subarray(0, 4096));
			stalled.push(res);
			return;
		}
		if (route.startsWith('/html'))
			return res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>pas une image</h1>');
		if (route.startsWith('/svg'))
			return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg/>');
		if (route.startsWith('/huge'))
			return res
				.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(21 * 1024 * 1024) })
				.end();
		res.writeHead(404).end();
	});
	await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
	upstreamHost = `127.0.0.1:${port()}`;
});
afterAll(async () => {
	await s3.close();
	await database.dispose();
	for (const res of stalled) res.socket?.destroy();
	await new Promise((r) => upstream.close(r));
});
const port = () => (upstream.address() as { port: number }).port;

const makeFs = () =>
	new FsStorage({
		root: mkdtempSync(path.join(tmpdir(), 'atelier-px-')),
		bucket: 'private-gallery',
		origin: new URL('http://127.0.0.1:9'),
		secret: 'k'.repeat(32)
	});
const makeS3 = (endpoint = s3.endpoint) =>
	new S3Storage({
		endpoint,
		accessKey: s3.accessKey,
		secretKey: s3.secretKey,
		region: 'us-east-1',
		bucket: 'private-gallery'
	});

const slot = slotOf('macon_hero')!;
const plain = { ifNoneMatch: null, head: false };
const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

function expectFallback(response: Response) {
	expect(response.status).toBe(200);
	expect(response.headers.get('x-image-fallback')).toBe('1');
	expect(response.headers.get('cache-control')).toBe('public, max-age=60');
	expect(response.headers.get('content-type')).toBe('image/webp');
	expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow');
}

describe.each([
	['fs', makeFs],
	['s3', () => makeS3()]
] as [string, () => Storage][])('proxy on the %s driver', (_, make) => {
	it('asks an external host for the width through its own parameter', async () => {
		const asked: string[] = [];
		const host = createServer((req, res) => {
			asked.push(req.url ?? '');
			res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length }).end(jpeg);
		});
		await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
		const address = `127.0.0.1:${(host.address() as import('node:net').AddressInfo).port}`;
		try {
			const deps = { storage: make(), config: { imageRemoteHosts: [address] } };
			const value = `http://${address}/photo.jpg?w=1600&h=900&q=80`;
			const response = await serveSlotImage(deps, slot, value, { ...plain, width: 480 });
			expect(response.status).toBe(200);
			await bytes(response);
			expect(asked).toEqual(['/photo.jpg?w=480&h=270&q=80']);
		} finally {
			host.close();
		}
	});

	it('serves each srcset width of an upload at that width, and the full size for an older upload', async () => {
		const storage = make();
		const deps = { storage, config: { imageRemoteHosts: [] } };
		const stored = await storeUpload(storage, photo, 'image/jpeg', { maxEdge: 2560 });
		// Asked before its widths are stored, a width gets the full image, cached as the value is (no short
		// stand-in cache: a page links the value only once its widths exist, uploadToSlot).
		const early = await serveSlotImage(deps, slot, stored.value, { ...plain, width: 800 });
		expect(early.status).toBe(200);
		expect(early.headers.get('cache-control')).toBe('public, max-age=3300, s-maxage=3300');
		await bytes(early);
		await stored.variantsStored;
		const full = await sharp(await bytes(await serveSlotImage(deps, slot, stored.value, plain))).metadata();
		expect(full.width).toBe(stored.stats.width);
		const offered = IMAGE_WIDTHS.filter((w) => w < stored.stats.width);
		expect(offered).toEqual(IMAGE_WIDTHS);
		for (const width of offered) {
			const response = await serveSlotImage(deps, slot, stored.value, { ...plain, width });
			expect(response.status).toBe(200);
			expect(response.headers.get('x-image-fallback')).toBeNull();
			const body = await bytes(response);
			expect(await sharp(body).metadata()).toMatchObject({ format: 'webp', width });
			if (width === 800) expect(body.length).toBeLessThanOrEqual(100 * 1024);
		}
		// Stored before widths existed: no variant, so the full image rather than the stock one.
		await storage.put('old.webp', await sharp(jpeg).webp().toBuffer(), {
			contentType: 'image/webp',
			cacheControl: 'public, max-age=31536000, immutable'
		});
		const old = await serveSlotImage(deps, slot, 'storage:old.webp', { ...plain, width: 480 });
		expect(old.status).toBe(200);
		expect(old.headers.get('x-image-fallback')).toBeNull();
	});

	it('caches a versioned URL for good, and only under the current value’s version', async () => {
		const storage = make();
		const deps = { storage, config: { imageRemoteHosts: [] } };
		const small = await sharp(photo).resize({ width: 600 }).jpeg().toBuffer();
		const stored = await storeUpload(storage, small, 'image/jpeg', { maxEdge: 2560 });
		await stored.variantsStored;
		expect(stored.stats.width).toBe(600);
		const current = versionOf(stored.value);
		const cacheOf = async (request: Partial<ImageRequest>) => {
			const response = await serveSlotImage(deps, slot, stored.value, { ...plain, ...request });
			const body = await bytes(response);
			return { cache: response.headers.get('cache-control'), width: (await sharp(body).metadata()).width };
		};
		const forGood = 'public, max-age=31536000, immutable';
		const hour = 'public, max-age=3300, s-maxage=3300';
		expect(await cacheOf({ version: current })).toEqual({ cache: forGood, width: 600 });
		expect(await cacheOf({ version: current, width: 480 })).toEqual({ cache: forGood, width: 480 });
		// 800 is more than the photo has: its own 600 px answer that width for good, never a minute's stand-in.
		expect(await cacheOf({ version: current, width: 800 })).toEqual({ cache: forGood, width: 600 });
		// An old page's version, or none: the value may change behind that URL.
		expect(await cacheOf({ version: 'ancienne00' })).toEqual({ cache: hour, width: 600 });
		expect(await cacheOf({})).toEqual({ cache: hour, width: 600 });
	});

	it('streams a stored image with its headers, and answers If-None-Match with 304', async () => {
		const storage = make();
		await storage.put('hero.webp', jpeg, {
			contentType: 'image/webp',
			cacheControl: 'public, max-age=31536000, immutable'
		});
		const deps = { storage, config: { imageRemoteHosts: [] } };
		const response = await serveSlotImage(deps, slot, 'storage:hero.webp', plain);
		expect(response.status).toBe(200);
		expect(response.body).toBeInstanceOf(ReadableStream);
		expect(response.headers.get('content-type')).toBe('image/webp');
		expect(response.headers.get('content-length')).toBe(String(jpeg.length));
		expect(response.headers.get('cache-control')).toBe('public, max-age=3300, s-maxage=3300');
		expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow');
		expect(response.headers.get('location')).toBeNull();
		const etag = response.headers.get('etag');
		expect(etag).toMatch(/^".+"$/);
		expect((await bytes(response)).equals(jpeg)).toBe(true);

		const cached = await serveSlotImage(deps, slot, 'storage:hero.webp', { ifNoneMatch: etag, head: false });
		expect(cached.status).toBe(304);
		expect(cached.headers.get('etag')).toBe(etag);

		const head = await serveSlotImage(deps, slot, 'storage:hero.webp', { ifNoneMatch: null, head: true });
		expect(head.status).toBe(200);
		expect(head.body).toBeNull();
	});

	it('keeps serving a stored image after a visitor cuts its answer short', async () => {
		const storage = make();
		const value = `storage:left-${Math.random().toString(36).slice(2)}.webp`;
		await storage.put(value.slice('storage:'.length), photo, { contentType: 'image/webp', cacheControl: '' });
		const deps = { storage, config: { imageRemoteHosts: [] } };
		for (const width of [null, 480] as const) {
			// adapter-node cancels the body with the socket's error when a client resets the connection midway.
			const left = await serveSlotImage(deps, slot, value, { ...plain, width });
			expect(left.headers.get('x-image-fallback'), `width ${width}`).toBeNull();
			const reader = left.body!.getReader();
			await reader.read();
			await reader.cancel(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
			// A visitor's leaving is no upstream failure: the next one gets the photo, not the stock image.
			const next = await serveSlotImage(deps, slot, value, { ...plain, width });
			expect(next.headers.get('x-image-fallback')).toBeNull();
			expect((await bytes(next)).equals(photo)).toBe(true);
		}
	});

	it('falls back to the default image when the object was deleted', async () => {
		const storage = make();
		await storage.put('gone.webp', jpeg, { contentType: 'image/webp', cacheControl: '' });
		await storage.delete('gone.webp');
		const response = await serveSlotImage(
			{ storage, config: { imageRemoteHosts: [] } },
			slot,
			'storage:gone.webp',
			plain
		);
		expectFallback(response);
		// Offline, the stock image cannot be fetched either: the page's bundled image is served.
		expect((await bytes(response)).equals(bundledMacon)).toBe(true);
	});
});

it('falls back when the storage server is down', async () => {
	const storage = makeS3(new URL('http://127.0.0.1:1'));
	expectFallback(
		await serveSlotImage({ storage, config: { imageRemoteHosts: [] } }, slot, 'storage:x.webp', plain)
	);
});

describe('external images', () => {
	const deps = () => ({
		storage: makeFs(),
		config: { imageRemoteHosts: [upstreamHost, `localhost:${port()}`] }
	});

	it('are fetched from a listed host, following a checked redirect', async () => {
		const direct = await serveSlotImage(deps(), slot, `http://${upstreamHost}/ok.jpg`, plain);
		expect(direct.status).toBe(200);
		expect(direct.headers.get('x-image-fallback')).toBeNull();
		expect(direct.headers.get('etag')).toBe('"up-1"');
		expect((await bytes(direct)).equals(jpeg)).toBe(true);
		const redirected = await serveSlotImage(deps(), slot, `http://${upstreamHost}/to-ok.jpg`, plain);
		expect(redirected.status).toBe(200);
		expect(redirected.headers.get('x-image-fallback')).toBeNull();
	});

	it.each([
		['a redirect to the metadata address', '/to-metadata.jpg'],
		['a redirect to a listed name that resolves to loopback', '/to-loopback-name.jpg'],
		['more than 3 redirects', '/loop0'],
		['a non-image answer', '/html'],
		['an SVG answer', '/svg'],
		['an answer over 20 MB', '/huge.jpg']
	])('refuse %s', async (_, route) => {
		expectFallback(await serveSlotImage(deps(), slot, `http://${upstreamHost}${route}`, plain));
	});

	it('abort a body cut after its headers, then fall back for a while instead of retrying', async () => {
		const value = `http://${upstreamHost}/cut.jpg?${Math.random()}`;
		const cut = await serveSlotImage(deps(), slot, value, plain);
		expect(cut.status).toBe(200);
		await expect(bytes(cut)).rejects.toThrow();
		const next = await serveSlotImage(deps(), slot, value, plain);
		expectFallback(next);
		expect((await bytes(next)).equals(bundledMacon)).toBe(true);
	});

	it(
		'abort a body that stalls past the time limit, then fall back',
		async () => {
			const value = `http://${upstreamHost}/stall.jpg?${Math.random()}`;
			const started = Date.now();
			const stalledResponse = await serveSlotImage(deps(), slot, value, plain);
			await expect(bytes(stalledResponse)).rejects.toThrow();
			const waited = Date.now() - started;
			expect(waited).toBeGreaterThanOrEqual(STALL_TIMEOUT_MS - 500);
			expect(waited).toBeLessThan(STALL_TIMEOUT_MS * 2);
			expectFallback(await serveSlotImage(deps(), slot, value, plain));
		},
		STALL_TIMEOUT_MS * 3
	);

	it('refuse a host that is no longer listed at fetch time', async () => {
		const unlisted = { storage: makeFs(), config: { imageRemoteHosts: ['images.unsplash.com'] } };
		expectFallback(await serveSlotImage(unlisted, slot, `http://${upstreamHost}/ok-unlisted.jpg`, plain));
	});
});

describe('a broken storage upstream', () => {
	it('aborts a stored image cut mid-body by the S3 server, then falls back for a while', async () => {
		const storage = makeS3(new URL(`http://${upstreamHost}`));
		const value = `storage:cut-${Math.random()}.webp`;
		const cut = await serveSlotImage({ storage, config: { imageRemoteHosts: [] } }, slot, value, plain);
		expect(cut.status).toBe(200);
		await expect(bytes(cut)).rejects.toThrow();
		expectFallback(await serveSlotImage({ storage, config: { imageRemoteHosts: [] } }, slot, value, plain));
	});

	it('serves the fallback when the database cannot be read', async () => {
		const broken = await createTestDatabase();
		await broken.dispose();
		const response = await serveSlot(
			{ db: broken.db, storage: makeFs(), config: { imageRemoteHosts: [] } },
			slot,
			plain
		);
		expectFallback(response);
	});
});

describe('site images table', () => {
	const deps = (storage: Storage) => ({
		db: database.db,
		storage,
		config: { imageRemoteHosts: ['images.unsplash.com'] }
	});

	it('lists every slot, with or without a row', async () => {
		const entries = await listSiteImages(database.db, makeFs());
		expect(entries.map((e) => e.key)).toContain('paysagiste_gallery_3');
		expect(entries.every((e) => e.isDefault && e.previewUrl === e.url)).toBe(true);
	});

	it('saves a storage value that exists, purges its page, and gives a signed preview', async () => {
		const storage = makeFs();
		await storage.put(`${NEW_PHOTO}.webp`, jpeg, { contentType: 'image/webp', cacheControl: '' });
		const purged: string[] = [];
		const stop = onPurge((page) => purged.push(page));
		const saved = await setSiteImage(
			deps(storage),
			{ key: 'macon_about', url: `storage:${NEW_PHOTO}.webp` },
			await admin()
		);
		stop();
		expect(purged).toEqual(['/macon']);
		expect(saved.url).toBe(`storage:${NEW_PHOTO}.webp`);
		expect(saved.previewUrl).toMatch(
			new RegExp(`/storage/private-gallery/${NEW_PHOTO}\\.webp\\?exp=\\d+&sig=`)
		);
		const entry = (await listSiteImages(database.db, storage)).find((e) => e.key === 'macon_about')!;
		expect(entry.isDefault).toBe(false);
		expect(entry.previewUrl).not.toBe(entry.url);
	});

	it('offers in srcset only the widths the photo has, and its own', async () => {
		const storage = makeFs();
		const small = await storeUpload(
			storage,
			await sharp(photo).resize({ width: 600 }).jpeg().toBuffer(),
			'image/jpeg',
			{
				maxEdge: 2560
			}
		);
		await setSiteImage(deps(storage), { key: 'macon_about', url: small.value }, await admin());
		const about = (await imagesOfPage(database.db, slotOf('macon_about')!.page)).macon_about!;
		expect(about.sourceWidth).toBe(600);
		expect(srcsetOf(about.src, about.sourceWidth)).toBe(`${about.src}&w=480 480w, ${about.src} 600w`);
		// The box stays the slot's (the layout does not move), and the stock images keep their host's width.
		expect(about.width).toBe(slotOf('macon_about')!.width);
		const hero = (await imagesOfPage(database.db, slotOf('macon_hero')!.page)).macon_hero!;
		expect(hero.sourceWidth).toBe(Number(new URL(slotOf('macon_hero')!.defaultUrl).searchParams.get('w')));
	});

	it.each([
		['an unknown key', { key: 'nope', url: 'https://images.unsplash.com/a' }, 'key'],
		['a storage path that does not exist', { key: 'hero', url: `storage:${NEW_PHOTO}.webp` }, 'url'],
		['a member’s attestation', { key: 'hero', url: 'storage:attestations/ABCD-2345.pdf' }, 'url'],
		['a signature', { key: 'hero', url: 'storage:signatures/trainer.png' }, 'url'],
		['a course file', { key: 'hero', url: `storage:course/${NEW_PHOTO}.webp` }, 'url'],
		['a photo’s width', { key: 'hero', url: `storage:${NEW_PHOTO}-w800.webp` }, 'url'],
		['a traversal', { key: 'hero', url: 'storage:../../secret' }, 'url'],
		['an unlisted host', { key: 'hero', url: 'https://evil.example/a.jpg' }, 'url'],
		['the metadata address', { key: 'hero', url: 'http://169.254.169.254/' }, 'url'],
		['loopback', { key: 'hero', url: 'http://127.0.0.1:8080/a.jpg' }, 'url'],
		['javascript:', { key: 'hero', url: 'javascript:alert(1)' }, 'url'],
		[
			'an alt text over 250 characters',
			{ key: 'hero', url: 'https://images.unsplash.com/a', alt: 'é'.repeat(251) },
			'alt'
		]
	])('refuses %s (400 naming the field) and writes nothing', async (_, change, field) => {
		const storage = makeFs();
		// Each private object named exists: refused for what it is, not for being missing.
		for (const objectPath of [
			'attestations/ABCD-2345.pdf',
			'signatures/trainer.png',
			`course/${NEW_PHOTO}.webp`,
			`${NEW_PHOTO}-w800.webp`
		])
			await storage.put(objectPath, jpeg, { contentType: 'application/octet-stream', cacheControl: '' });
		const before = JSON.stringify(
			await listSiteImages(database.db, storage).then((l) => l.map((e) => [e.key, e.url]))
		);
		const attempt = setSiteImage(deps(storage), change, await admin());
		await expect(attempt).rejects.toBeInstanceOf(ValidationError);
		await expect(attempt).rejects.toMatchObject({ fieldErrors: { [field]: [expect.any(String)] } });
		const after = JSON.stringify(
			await listSiteImages(database.db, storage).then((l) => l.map((e) => [e.key, e.url]))
		);
		expect(after).toBe(before);
	});

	it('keeps the alt text the admin wrote for the photo, and falls back to the slot label without one', async () => {
		const storage = makeFs();
		await setSiteImage(
			deps(storage),
			{ key: 'hero', url: 'https://images.unsplash.com/photo-y', alt: '  Un mur en pierre dorée  ' },
			await admin()
		);
		expect((await imagesOfPage(database.db, slotOf('hero')!.page)).hero!.alt).toBe('Un mur en pierre dorée');
		await setSiteImage(
			deps(storage),
			{ key: 'hero', url: 'https://images.unsplash.com/photo-z' },
			await admin()
		);
		expect((await imagesOfPage(database.db, slotOf('hero')!.page)).hero!.alt).toBe(slotOf('hero')!.label);
	});

	it.each([
		['fs', makeFs],
		['s3', () => makeS3()]
	] as [string, () => Storage][])(
		'deletes a replaced photo and its widths from the bucket (%s), unless a slot or a page still names it',
		async (_, make) => {
			const storage = make();
			const upload = async () => {
				const stored = await storeUpload(storage, photo, 'image/jpeg', { maxEdge: 1600 });
				await stored.variantsStored;
				return stored;
			};
			const objects = (stored: { path: string }) => [
				stored.path,
				...IMAGE_WIDTHS.filter((w) => w < 1600).map((w) => variantPath(stored.path, w))
			];
			const present = async (stored: { path: string }) =>
				Promise.all(objects(stored).map(async (p) => (await storage.stat(p)) !== null));
			const set = async (key: string, url: string | null) =>
				setSiteImage(deps(storage), { key, url }, await admin());
			const [first, second, shared, cover] = [await upload(), await upload(), await upload(), await upload()];
			expect(await present(first)).toEqual([true, true, true, true]);

			// Replaced: gone, with its widths.
			await set('paysagiste_about', first.value);
			await set('paysagiste_about', second.value);
			expect(await present(first)).toEqual([false, false, false, false]);
			expect(await present(second)).toEqual([true, true, true, true]);
			// Reset to the stock photo: gone too.
			await set('paysagiste_about', null);
			expect(await present(second)).toEqual([false, false, false, false]);

			// Shown by another slot: kept until the last one lets it go.
			await set('paysagiste_gallery_1', shared.value);
			await set('paysagiste_gallery_2', shared.value);
			await set('paysagiste_gallery_1', null);
			expect(await present(shared)).toEqual([true, true, true, true]);
			await set('paysagiste_gallery_2', null);
			expect(await present(shared)).toEqual([false, false, false, false]);

			// Named by a page's draft (a cover): kept, as it is by a published revision « Restaurer » may bring back.
			const id = `article-photo-${make === makeFs ? 'fs' : 's3'}`;
			await database.db.insert(contentEntries).values({
				id,
				kind: 'article',
				path: `/blog/${id}`,
				draft: { cover: { value: cover.value, alt: 'Un mur' } }
			});
			try {
				await set('paysagiste_gallery_3', cover.value);
				await set('paysagiste_gallery_3', null);
				expect(await present(cover)).toEqual([true, true, true, true]);
			} finally {
				await database.db.delete(contentEntries).where(eq(contentEntries.id, id));
			}
		}
	);

	it('resets a slot to its default with url null', async () => {
		const storage = makeFs();
		await setSiteImage(
			deps(storage),
			{ key: 'hero', url: 'https://images.unsplash.com/photo-x' },
			await admin()
		);
		const reset = await setSiteImage(deps(storage), { key: 'hero', url: null }, await admin());
		expect(reset.url).toBe(slotOf('hero')!.defaultUrl);
		expect((await listSiteImages(database.db, storage)).find((e) => e.key === 'hero')!.isDefault).toBe(true);
		// The audit trail: who replaced the photo, then reset it, with the value before and after.
		const { auditEvents } = await import('../../src/lib/server/db/schema');
		const { desc, eq } = await import('drizzle-orm');
		const [last, previous] = await database.db
			.select()
			.from(auditEvents)
			.where(eq(auditEvents.subjectId, 'hero'))
			.orderBy(desc(auditEvents.at))
			.limit(2);
		expect(last).toMatchObject({
			kind: 'site_image.reset',
			actorEmail: (await admin()).email,
			changes: { url: { before: 'https://images.unsplash.com/photo-x', after: null } }
		});
		expect(previous).toMatchObject({
			kind: 'site_image.replaced',
			changes: { url: { after: 'https://images.unsplash.com/photo-x' } }
		});
	});
});

async function admin(): Promise<{ id: string; email: string }> {
	const { users } = await import('../../src/lib/server/db/schema');
	const [existing] = await database.db.select().from(users);
	if (existing) return existing;
	const [created] = await database.db
		.insert(users)
		.values({ email: 'admin@exemple.fr', name: 'A', passwordHash: 'x', isAdmin: true })
		.returning();
	return created!;
}

describe('sizedValue', () => {
	it('names the variant of a stored image, and asks the stock host for the width (crop kept)', () => {
		expect(sizedValue('storage:abc.webp', 800)).toBe('storage:abc-w800.webp');
		expect(sizedValue('https://images.unsplash.com/p?auto=format&w=1600&h=900&q=80', 800)).toBe(
			'https://images.unsplash.com/p?auto=format&w=800&h=450&q=80'
		);
		// No width parameter, or already smaller: the value as it is.
		expect(sizedValue('https://cdn.example/p.jpg', 800)).toBe('https://cdn.example/p.jpg');
		expect(sizedValue('https://cdn.example/p.jpg?w=600', 800)).toBe('https://cdn.example/p.jpg?w=600');
		expect(sizedValue('storage:abc.webp', null)).toBe('storage:abc.webp');
	});
});
