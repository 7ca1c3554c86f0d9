import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, truncateSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/lib/server/db';
import { serveSlotImage, type ProxyDeps } from '../../src/lib/server/images/proxy';
import { setSiteImage, listSiteImages, serveSiteImage } from '../../src/lib/server/images/site-images';
import { slotOf } from '../../src/lib/server/images/slots';
import { onPurge } from '../../src/lib/server/pages/cache';
import { FsStorage, S3Storage, type Storage } from '../../src/lib/server/storage';
import { ValidationError } from '../../src/lib/server/errors';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { fixture } from '../helpers/fixtures';
import { startHostileUpstream, type HostileUpstream } from '../helpers/hostile-upstream';
import { startS3, type RunningS3 } from '../helpers/s3';

const jpeg = readFileSync(fixture('Landscape_1.jpg'));
const bundledMacon = readFileSync('src/lib/server/images/fallback/macon.webp');

let s3: RunningS3;
let upstream: Server;
let upstreamHost: string;
let database: TestDatabase;

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
	await new Promise((r) => upstream.close(r));
});
const port = () => (upstream.address() as { port: number }).port;

const makeFs = (root = mkdtempSync(path.join(tmpdir(), 'atelier-px-'))) =>
	new FsStorage({
		root,
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

	it('refuse a host that is no longer listed at fetch time', async () => {
		const unlisted = { storage: makeFs(), config: { imageRemoteHosts: ['images.unsplash.com'] } };
		expectFallback(await serveSlotImage(unlisted, slot, `http://${upstreamHost}/ok-unlisted.jpg`, plain));
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
		await storage.put('new.webp', jpeg, { contentType: 'image/webp', cacheControl: '' });
		const purged: string[] = [];
		const stop = onPurge((page) => purged.push(page));
		const saved = await setSiteImage(
			deps(storage),
			{ key: 'macon_about', url: 'storage:new.webp' },
			(await adminId())!
		);
		stop();
		expect(purged).toEqual(['/macon']);
		expect(saved.url).toBe('storage:new.webp');
		expect(saved.previewUrl).toMatch(/\/storage\/private-gallery\/new\.webp\?exp=\d+&sig=/);
		const entry = (await listSiteImages(database.db, storage)).find((e) => e.key === 'macon_about')!;
		expect(entry.isDefault).toBe(false);
		expect(entry.previewUrl).not.toBe(entry.url);
	});

	it.each([
		['an unknown key', { key: 'nope', url: 'https://images.unsplash.com/a' }, 'key'],
		['a storage path that does not exist', { key: 'hero', url: 'storage:missing.webp' }, 'url'],
		['a traversal', { key: 'hero', url: 'storage:../../secret' }, 'url'],
		['an unlisted host', { key: 'hero', url: 'https://evil.example/a.jpg' }, 'url'],
		['the metadata address', { key: 'hero', url: 'http://169.254.169.254/' }, 'url'],
		['loopback', { key: 'hero', url: 'http://127.0.0.1:8080/a.jpg' }, 'url'],
		['javascript:', { key: 'hero', url: 'javascript:alert(1)' }, 'url']
	])('refuses %s (400 naming the field) and writes nothing', async (_, change, field) => {
		const storage = makeFs();
		const before = JSON.stringify(
			await listSiteImages(database.db, storage).then((l) => l.map((e) => [e.key, e.url]))
		);
		const attempt = setSiteImage(deps(storage), change, (await adminId())!);
		await expect(attempt).rejects.toBeInstanceOf(ValidationError);
		await expect(attempt).rejects.toMatchObject({ fieldErrors: { [field]: [expect.any(String)] } });
		const after = JSON.stringify(
			await listSiteImages(database.db, storage).then((l) => l.map((e) => [e.key, e.url]))
		);
		expect(after).toBe(before);
	});

	it('resets a slot to its default with url null', async () => {
		const storage = makeFs();
		await setSiteImage(
			deps(storage),
			{ key: 'hero', url: 'https://images.unsplash.com/photo-x' },
			(await adminId())!
		);
		const reset = await setSiteImage(deps(storage), { key: 'hero', url: null }, (await adminId())!);
		expect(reset.url).toBe(slotOf('hero')!.defaultUrl);
		expect((await listSiteImages(database.db, storage)).find((e) => e.key === 'hero')!.isDefault).toBe(true);
	});
});

describe('an upstream that breaks after its headers', () => {
	// Larger than what is sent before the break, so that a cut answer is visibly short.
	const image = randomBytes(256 * 1024);
	const STALL_MS = 400;
	let hostile: HostileUpstream;
	beforeAll(async () => {
		hostile = await startHostileUpstream(image);
	});
	afterAll(() => hostile.close());

	const externalDeps = (): ProxyDeps => ({
		storage: makeFs(),
		config: { imageRemoteHosts: [hostile.host] },
		limits: { bodyStall: STALL_MS }
	});
	const hostileS3 = () =>
		new S3Storage({
			endpoint: new URL(hostile.url),
			accessKey: 'k',
			secretKey: 's'.repeat(20),
			region: 'us-east-1',
			bucket: 'private-gallery'
		});
	const s3Deps = (): ProxyDeps => ({
		storage: hostileS3(),
		config: { imageRemoteHosts: [] },
		limits: { bodyStall: STALL_MS }
	});

	/** The log lines written while `run` runs (the log writes warnings as JSON on stderr). */
	async function logsOf(run: () => Promise<void>): Promise<Record<string, unknown>[]> {
		const lines: Record<string, unknown>[] = [];
		const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
			lines.push(JSON.parse(String(line)) as Record<string, unknown>);
		});
		try {
			await run();
		} finally {
			spy.mockRestore();
		}
		return lines;
	}

	/** Serves the slot from a broken upstream: headers as usual, then a body that fails, logged and bounded. */
	async function expectBrokenBody(deps: ProxyDeps, value: string, reason: RegExp) {
		let elapsed = 0;
		const logs = await logsOf(async () => {
			const response = await serveSlotImage(deps, slot, value, plain);
			expect(response.status).toBe(200);
			expect(response.headers.get('x-image-fallback')).toBeNull();
			expect(response.headers.get('content-length')).toBe(String(image.length));
			const started = Date.now();
			await expect(bytes(response)).rejects.toThrow();
			elapsed = Date.now() - started;
		});
		expect(logs).toContainEqual(
			expect.objectContaining({
				level: 'warn',
				message: expect.stringContaining('stream failed'),
				key: slot.key,
				reason: expect.stringMatching(reason)
			})
		);
		// No secret of a presigned URL in the log.
		expect(JSON.stringify(logs)).not.toMatch(/X-Amz-Signature/i);
		return elapsed;
	}

	const cases: [string, () => ProxyDeps, (word: string) => string, (word: string) => string][] = [
		['an external host', externalDeps, (w) => `http://${hostile.host}/ext/${w}.jpg`, (w) => `/ext/${w}.jpg`],
		['the s3 driver', s3Deps, (w) => `storage:${w}.webp`, (w) => `/private-gallery/${w}.webp`]
	];

	describe.each(cases)('from %s', (_, deps, valueOf, pathOf) => {
		it('aborts a body cut short, logs it, and falls back for a while without asking again', async () => {
			const d = deps();
			await expectBrokenBody(d, valueOf('cut-1'), /terminated|closed|socket/i);
			expect(hostile.hits(pathOf('cut-1'))).toBe(1);
			const next = await serveSlotImage(d, slot, valueOf('cut-1'), plain);
			expectFallback(next);
			expect((await bytes(next)).equals(bundledMacon)).toBe(true);
			expect(hostile.hits(pathOf('cut-1'))).toBe(1);
			// Another image of the same upstream is still asked for: the memory is per image.
			await expectBrokenBody(d, valueOf('cut-2'), /terminated|closed|socket/i);
		});

		it('aborts a body that stalls past the stall limit, and falls back afterwards', async () => {
			const d = deps();
			const elapsed = await expectBrokenBody(d, valueOf('stall-1'), /stalled/);
			expect(elapsed).toBeGreaterThanOrEqual(STALL_MS * 0.9);
			// Bounded by the stall limit, not by any longer timeout (the header deadline is 25 times longer).
			expect(elapsed).toBeLessThan(STALL_MS * 12);
			expectFallback(await serveSlotImage(d, slot, valueOf('stall-1'), plain));
			expect(hostile.hits(pathOf('stall-1'))).toBe(1);
		});

		it('remembers a failure before the headers too', async () => {
			const d = deps();
			expectFallback(await serveSlotImage(d, slot, valueOf('error-1'), plain));
			expectFallback(await serveSlotImage(d, slot, valueOf('error-1'), plain));
			expect(hostile.hits(pathOf('error-1'))).toBe(1);
		});
	});

	it('does not count a slow client as a stalled upstream', async () => {
		const response = await serveSlotImage(externalDeps(), slot, `http://${hostile.host}/ext/ok.jpg`, plain);
		const reader = response.body!.getReader();
		const first = await reader.read();
		expect(first.done).toBe(false);
		// The client takes nothing for several stall limits; the upstream was not waited on meanwhile.
		await new Promise((resolve) => setTimeout(resolve, STALL_MS * 3));
		let received = first.value!.length;
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			received += value.length;
		}
		expect(received).toBe(image.length);
	});

	it('on the fs driver, aborts a file that shrinks during the read, and falls back for a while', async () => {
		const root = mkdtempSync(path.join(tmpdir(), 'atelier-px-'));
		const storage = makeFs(root);
		const big = randomBytes(4 * 1024 * 1024);
		await storage.put('shrinks.webp', big, { contentType: 'image/webp', cacheControl: '' });
		const deps: ProxyDeps = { storage, config: { imageRemoteHosts: [] }, limits: { bodyStall: STALL_MS } };
		const logs = await logsOf(async () => {
			const response = await serveSlotImage(deps, slot, 'storage:shrinks.webp', plain);
			expect(response.status).toBe(200);
			expect(response.headers.get('content-length')).toBe(String(big.length));
			const reader = response.body!.getReader();
			expect((await reader.read()).done).toBe(false);
			truncateSync(path.join(root, 'private-gallery', 'shrinks.webp'), 1024);
			await expect(
				(async () => {
					while (!(await reader.read()).done);
				})()
			).rejects.toThrow(/ended at/);
		});
		expect(logs).toContainEqual(
			expect.objectContaining({
				key: slot.key,
				upstream: 'storage',
				reason: expect.stringMatching(/ended at/)
			})
		);
		// Whole again, but the failure is remembered: not read again for a while.
		await storage.put('shrinks.webp', big, { contentType: 'image/webp', cacheControl: '' });
		expectFallback(await serveSlotImage(deps, slot, 'storage:shrinks.webp', plain));
		// The memory belongs to the failed object, not to the whole storage.
		await storage.put('other.webp', jpeg, { contentType: 'image/webp', cacheControl: '' });
		const other = await serveSlotImage(deps, slot, 'storage:other.webp', plain);
		expect(other.headers.get('x-image-fallback')).toBeNull();
		expect((await bytes(other)).equals(jpeg)).toBe(true);
	});
});

describe('with the database out of reach', () => {
	it('serves the fallback image when the database is closed', async () => {
		const closed = await createTestDatabase({ migrate: false });
		await closed.dispose();
		const response = await serveSiteImage(
			{ db: closed.db, storage: makeFs(), config: { imageRemoteHosts: [] } },
			slot,
			plain
		);
		expectFallback(response);
		expect((await bytes(response)).equals(bundledMacon)).toBe(true);
	});

	it('serves the fallback image when the database server accepts and never answers', async () => {
		const sockets = new Set<Socket>();
		const silent = createTcpServer((socket) => {
			sockets.add(socket);
			socket.on('error', () => {});
		});
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		const { port } = silent.address() as { port: number };
		const unreachable = openDatabase({ url: `postgres://atelier@127.0.0.1:${port}/atelier`, max: 1 });
		try {
			const started = Date.now();
			const response = await serveSiteImage(
				{
					db: unreachable.db,
					storage: makeFs(),
					config: { imageRemoteHosts: [] },
					valueTimeoutMs: 300
				},
				slot,
				plain
			);
			expectFallback(response);
			expect(Date.now() - started).toBeLessThan(300 * 15);
		} finally {
			for (const socket of sockets) socket.destroy();
			silent.close();
			void unreachable.close().catch(() => {});
		}
	});

	it('serves the stored image while the database answers', async () => {
		const storage = makeFs();
		await storage.put('live.webp', jpeg, { contentType: 'image/webp', cacheControl: '' });
		await setSiteImage(
			{ db: database.db, storage, config: { imageRemoteHosts: [] } },
			{ key: slot.key, url: 'storage:live.webp' },
			await adminId()
		);
		const response = await serveSiteImage(
			{ db: database.db, storage, config: { imageRemoteHosts: [] } },
			slot,
			plain
		);
		expect(response.headers.get('x-image-fallback')).toBeNull();
		expect((await bytes(response)).equals(jpeg)).toBe(true);
	});
});

async function adminId(): Promise<string> {
	const { users } = await import('../../src/lib/server/db/schema');
	const [existing] = await database.db.select().from(users);
	if (existing) return existing.id;
	const [created] = await database.db
		.insert(users)
		.values({ email: 'admin@exemple.fr', name: 'A', passwordHash: 'x', isAdmin: true })
		.returning();
	return created!.id;
}
