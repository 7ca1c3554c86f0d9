/**
 * `/api/img/{key}` for a stored photo, as the server entry answers it (src/server/image-proxy.ts), before SvelteKit.
 * Through SvelteKit, each answer built a web Request and Response, a web stream over the file, and read the
 * object's file, its metadata file and its size again: `npm run bench images` measured the proxy at 0.39–0.47× a
 * bare node:http server sending the same bytes (issue « Speed, part 2 »).
 *
 * What every request still does is SEED.md's: the slot's current value, a fresh signed URL for the object (checked
 * as the storage route checks it, on the files driver), and the object fetched through it and sent. What it need
 * not do again is kept until a purge (a slot changed, here or — PostgreSQL NOTIFY — on another instance): the slot's
 * value (slot-values.ts), the variant's path, the object's type, size and ETag, and the answer's whole head.
 *
 * Anything else — an unknown key, a width no page offers, a stock or external image, a variant not made yet, a
 * storage that fails — is the route's (proxy.ts): null here, and SvelteKit answers it as before.
 */
import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import type { ImageWidth } from '$lib/images';
import type { Config } from '../config';
import { built } from '../lazy';
import type { DbOrTx } from '../db';
import type { ImageProxyAnswer, ImageProxyAnswerParts } from '../http/image-proxy-bridge';
import { IMAGE_PROXY_PREFIX } from '../http/image-proxy-bridge';
import { REQUEST_ID_HEADER } from '../http/request-log';
import { securityHeaders } from '../http/security-headers';
import { recordImageProxy } from '../metrics';
import * as pageCache from '../pages/cache';
import { FsStorage, S3Storage, storagePathOf, type Storage } from '../storage';
import {
	ANSWERED_BY,
	isVersioned,
	objectHead,
	PROXY_CACHE_CONTROL,
	VERSIONED_CACHE_CONTROL,
	widthPlan
} from './answer-plan';
import { SIGNED_URL_SECONDS, storedValue, storedValueNow, versionOf } from './slot-values';
import { slotOf } from './slots';
import { parseProxyUrl } from './proxy-url';

export interface EntryAnswerDeps {
	db: DbOrTx;
	storage: Storage;
	config: Config;
}

/** What is known of one stored object, and the heads of its answers: kept until a purge. */
interface KnownObject {
	/**
	 * The files driver's file, opened once and read whole at each request (one read, not an open, a stat, a read
	 * and a close); null on S3, where the bytes come through the signed URL. Closed when the object is forgotten.
	 */
	file: FileHandle | null;
	/**
	 * Set, at once, when the object is forgotten: its file is being closed, and its descriptor's number may soon name
	 * another file. An answer that waited (for the object, or for the pool's read) and finds this goes to the route.
	 */
	forgotten: boolean;
	/**
	 * Buffers of the object's size whose answers are sent, ready for the next read. A new buffer per answer costs
	 * more than the read: above 64 KiB each is its own mapping (the heap's setting, src/server/heap.ts), made and
	 * unmade every time — a third of the proxy's time, measured.
	 */
	spare: Buffer[];
	etag: string;
	size: number;
	/**
	 * On S3, the last signed URL asked through, taken apart: the storage signs one URL a second per object (s3.ts),
	 * so most answers ask the very string the last one did, and need not parse it again.
	 */
	bucketTarget: { signed: string; origin: string; path: string } | null;
	/**
	 * On the files driver, the second the object's URL was last signed and checked, and whether the check granted
	 * it: a URL signed in the same second is the same string (its expiry is that second's plus an hour), so every
	 * request of that second gets it — made and checked once a second, as the S3 driver signs (s3.ts).
	 */
	signedSecond: number;
	signedGranted: boolean;
	/** Heads by cache policy (unversioned, versioned) and status; each a flat list ending with the request id's pair. */
	heads: Record<'200' | '304' | 'v200' | 'v304', readonly string[]>;
}

/** A request as parsed from its URL, with its conditional and its method. */
interface ProxyRequest {
	key: string;
	width: ImageWidth | null;
	version: string | null;
	head: boolean;
	ifNoneMatch: string | undefined;
}

/** Photos and variants a site shows: a few dozen. Bounded all the same (each key is a value and a width). */
const MAX_KNOWN = 512;

/** Up to this size an object is read on the server's thread (see where it is read). */
const SYNC_READ_BYTES = 1024 * 1024;

/** Buffers kept per object: as many as answers of it are being sent at once, usually. */
const MAX_SPARE = 32;

/** The bucket's own connections: kept alive between requests, as a browser's are to a site. */
const bucketAgent = new Agent({ keepAliveTimeout: 30_000, connections: 32, headersTimeout: 10_000 });

export function imageProxyAnswer(deps: () => EntryAnswerDeps): ImageProxyAnswer {
	/** Objects being learnt or learnt (null: not there), by path. */
	const known = new Map<string, Promise<KnownObject | null>>();
	/**
	 * The objects of `known` learnt, their files open: a request for one of them, its slot's value known too, is
	 * answered without a promise or a turn of the event loop (`answerAtOnce`): awaiting what is already settled costs
	 * a promise and a microtask each time, and the answer waited for three of them (the value, the object, its file).
	 */
	const ready = new Map<string, KnownObject>();
	const versions = new Map<string, string>();
	let baseHead: string[] | null = null;
	/** The storage the deps gave last, and the object it stands for (`built`). */
	let lastGiven: Storage | null = null;
	let storageItself: Storage | null = null;
	/** Closes an object's file, if it has one, once the reads under way are done (FileHandle.close waits for them). */
	const closeFile = (object: Promise<KnownObject | null> | undefined) =>
		void object
			?.then((found) => {
				if (!found) return;
				found.forgotten = true;
				return found.file?.close();
			})
			.catch(() => {});
	const markForgotten = (objectPath: string) => {
		const found = ready.get(objectPath);
		if (found) found.forgotten = true;
	};
	/** Forgets every object: after a purge, a slot may name other photos. */
	const forget = () => {
		for (const [objectPath, object] of known) {
			markForgotten(objectPath);
			closeFile(object);
		}
		known.clear();
		ready.clear();
		versions.clear();
	};
	pageCache.onPurge(forget);
	/** Forgets one object (not made yet, or gone): asked again next time. */
	const drop = (objectPath: string) => {
		markForgotten(objectPath);
		closeFile(known.get(objectPath));
		known.delete(objectPath);
		ready.delete(objectPath);
	};

	const headOf = (config: Config) =>
		(baseHead ??= Object.entries(securityHeaders(config, undefined, IMAGE_PROXY_PREFIX))
			.filter((entry): entry is [string, string] => !!entry[1])
			.flat());

	/** The object's type, size and ETag, once (objects are never rewritten in place: a new photo is a new name). */
	async function learn(storage: Storage, config: Config, objectPath: string): Promise<KnownObject | null> {
		const info = await storage.stat(objectPath);
		if (!info) return null;
		const file = storage instanceof FsStorage ? await open(storage.localFile(objectPath), 'r') : null;
		const object = {
			etag: info.etag,
			contentType: info.contentType,
			size: info.size,
			lastModified: info.lastModified.toUTCString()
		};
		// The route's head (answer-plan.ts), flat as the entry writes it, after the security headers.
		const head = (cacheControl: string, status: 200 | 304) => [
			...headOf(config),
			...objectHead(object, cacheControl, status).flat(),
			ANSWERED_BY,
			'entry',
			REQUEST_ID_HEADER,
			''
		];
		return {
			file,
			forgotten: false,
			spare: [],
			etag: info.etag,
			size: info.size,
			bucketTarget: null,
			signedSecond: -1,
			signedGranted: false,
			heads: {
				'200': head(PROXY_CACHE_CONTROL, 200),
				'304': head(PROXY_CACHE_CONTROL, 304),
				v200: head(VERSIONED_CACHE_CONTROL, 200),
				v304: head(VERSIONED_CACHE_CONTROL, 304)
			}
		};
	}

	/** The answer's status, head and body, under the head its cache policy and status call for. */
	function partsOf(
		found: KnownObject,
		value: string,
		request: ProxyRequest,
		status: 200 | 304,
		body: ImageProxyAnswerParts['body'],
		sent?: () => void
	): ImageProxyAnswerParts {
		let current = versions.get(value);
		if (current === undefined) versions.set(value, (current = versionOf(value)));
		const heads = found.heads;
		const head = isVersioned(request.version, current)
			? status === 304
				? heads.v304
				: heads.v200
			: status === 304
				? heads['304']
				: heads['200'];
		return { status, head, body, sent };
	}

	/**
	 * A known object's answer on the files driver, made now: a fresh signed URL for this request, as SEED.md asks
	 * (this second's: the same string for every request of the second, so made and checked once in it — see
	 * `signedSecond`), checked as the storage route checks one (its parts, not a URL written out and parsed again),
	 * then the file read — the object fetched through its URL, without a round trip to this very server. Undefined
	 * when the read is for the thread pool (a file above SYNC_READ_BYTES); null when the route must answer.
	 */
	function answerAtOnce(
		storage: FsStorage,
		found: KnownObject,
		sized: string,
		value: string,
		request: ProxyRequest
	): ImageProxyAnswerParts | null | undefined {
		const second = Math.floor(Date.now() / 1000);
		if (found.signedSecond !== second) {
			const { exp, sig } = storage.signature(sized, SIGNED_URL_SECONDS);
			found.signedGranted = storage.verifySignature(sized, exp, sig) !== null;
			found.signedSecond = second;
		}
		if (!found.signedGranted) return null;
		const notModified = request.ifNoneMatch !== undefined && request.ifNoneMatch === found.etag;
		if (notModified || request.head) {
			recordImageProxy(notModified ? 'not_modified' : 'served');
			return partsOf(found, value, request, notModified ? 304 : 200, null);
		}
		// A photo of the site (WebP, at most 1 MB: the upload pipeline's bound) is read in one call on this thread:
		// 6 µs for 73 KB in the page cache, against 15–20 µs of CPU through the thread pool and a promise. Anything
		// larger is read through the pool, so that a large file never holds the loop.
		if (found.size > SYNC_READ_BYTES) return undefined;
		const bytes = found.spare.pop() ?? Buffer.allocUnsafeSlow(found.size);
		let read = -1;
		try {
			read = readSync(found.file!.fd, bytes, 0, found.size, 0);
		} catch {
			// Gone: the route answers this one.
		}
		return readWhole(found, sized, value, request, bytes, read);
	}

	/** The answer with the bytes read, or null (and the object forgotten) when they are not the object's. */
	function readWhole(
		found: KnownObject,
		sized: string,
		value: string,
		request: ProxyRequest,
		bytes: Buffer,
		read: number
	): ImageProxyAnswerParts | null {
		if (read !== found.size) {
			drop(sized);
			return null;
		}
		recordImageProxy('served');
		// Once the answer is sent (or its connection gone), the buffer serves the next one.
		return partsOf(found, value, request, 200, bytes, () => {
			if (found.spare.length < MAX_SPARE) found.spare.push(bytes);
		});
	}

	/** The answer when something must be waited for: the slot's value, the object, the pool's read, the bucket. */
	async function answerLater(
		{ db, storage, config }: EntryAnswerDeps,
		request: ProxyRequest
	): Promise<ImageProxyAnswerParts | null> {
		let value: string | null;
		try {
			value = await storedValue(db, request.key);
		} catch {
			return null;
		}
		const sized = value === null ? null : objectPathOf(value, request.width);
		if (sized === null) return null;
		let object = known.get(sized);
		if (!object) {
			if (known.size >= MAX_KNOWN) forget();
			const learning = learn(storage, config, sized).catch(() => null);
			object = learning;
			known.set(sized, learning);
			void learning.then((found) => {
				if (found && known.get(sized) === learning) ready.set(sized, found);
			});
		}
		const found = await object;
		if (!found || found.forgotten) {
			// Not made yet (or gone): asked again next time, and the route answers this one.
			if (!found) drop(sized);
			return null;
		}
		if (storage instanceof FsStorage) {
			const now = answerAtOnce(storage, found, sized, value!, request);
			if (now !== undefined) return now;
			const bytes = found.spare.pop() ?? Buffer.allocUnsafeSlow(found.size);
			let read = -1;
			try {
				read = (await found.file!.read(bytes, 0, found.size, 0)).bytesRead;
			} catch {
				// Closed by a purge meanwhile, or gone: the route answers this one.
			}
			return found.forgotten ? null : readWhole(found, sized, value!, request, bytes, read);
		}
		const signed = request.head ? null : await storage.signedUrl(sized, SIGNED_URL_SECONDS);
		return answerFromBucket(found, sized, value!, request, signed);
	}

	/**
	 * A known object's answer on S3: the bucket is asked every time, through `signed` (null for a HEAD, which needs
	 * no bytes); a client's ETag goes with the question, and its 304 is the bucket's.
	 */
	async function answerFromBucket(
		found: KnownObject,
		sized: string,
		value: string,
		request: ProxyRequest,
		signed: string | null
	): Promise<ImageProxyAnswerParts | null> {
		const notModified = request.ifNoneMatch !== undefined && request.ifNoneMatch === found.etag;
		let body: Readable | null = null;
		if (signed !== null) {
			const fetched = await fromBucket(signed, found, notModified);
			if (fetched === null) {
				drop(sized);
				return null;
			}
			body = fetched === NOT_MODIFIED ? null : fetched;
		}
		recordImageProxy(notModified ? 'not_modified' : 'served');
		return partsOf(found, value, request, notModified ? 304 : 200, body);
	}

	return ({ url, head, ifNoneMatch }) => {
		const parsed = parseProxyUrl(url);
		if (!parsed || !slotOf(parsed.key)) return null;
		const request: ProxyRequest = {
			key: parsed.key,
			width: parsed.width,
			version: parsed.version,
			head,
			ifNoneMatch
		};
		const current = deps();
		// The storage itself, not the lazy proxy that stands for it (a trap and a bound method per call otherwise).
		if (current.storage !== lastGiven) storageItself = built((lastGiven = current.storage));
		const storage = storageItself!;
		// The slot's value and its object known: on the files driver answered now, the bytes read on this thread; on
		// S3, with this second's URL already signed, asked of the bucket at once, without waiting on what has settled.
		const value = storedValueNow(request.key);
		if (value === null) return null;
		if (value !== undefined) {
			if (parsed.pathFor !== value) {
				parsed.path = objectPathOf(value, parsed.width);
				parsed.pathFor = value;
			}
			const sized = parsed.path;
			if (sized === null) return null;
			const found = ready.get(sized);
			if (found && storage instanceof FsStorage) {
				const now = answerAtOnce(storage, found, sized, value, request);
				if (now !== undefined) return now;
			} else if (found && storage instanceof S3Storage) {
				const signed = request.head ? null : storage.signedUrlNow(sized, SIGNED_URL_SECONDS);
				if (signed !== undefined) return answerFromBucket(found, sized, value, request, signed);
			}
		}
		return answerLater({ ...current, storage }, request);
	};
}

/** The stored object a value names at a width (its variant), or null when the value is no stored object. */
const objectPathOf = (value: string, width: ImageWidth | null): string | null =>
	storagePathOf(value) === null ? null : widthPlan(value, width).objectPath;

const NOT_MODIFIED = Symbol('not modified');

/**
 * The object through its signed URL: its body as it streams; NOT_MODIFIED when `revalidate` asked with its ETag and
 * the bucket said so (304); null when the bucket does not send what is known of the object.
 */
async function fromBucket(
	signed: string,
	object: KnownObject,
	revalidate: boolean
): Promise<Readable | typeof NOT_MODIFIED | null> {
	try {
		let target = object.bucketTarget;
		if (target?.signed !== signed) {
			const url = new URL(signed);
			object.bucketTarget = target = { signed, origin: url.origin, path: url.pathname + url.search };
		}
		const response = await bucketAgent.request({
			origin: target.origin,
			path: target.path,
			method: 'GET',
			headers: revalidate ? { 'if-none-match': object.etag } : {}
		});
		if (revalidate && response.statusCode === 304) {
			response.body.resume();
			return NOT_MODIFIED;
		}
		const length = Number(response.headers['content-length']);
		if (response.statusCode !== 200 || length !== object.size || response.headers.etag !== object.etag) {
			response.body.destroy();
			return null;
		}
		if (revalidate) {
			// A bucket that ignores If-None-Match sent the object whole: the same ETag, so the client's copy holds.
			response.body.destroy();
			return NOT_MODIFIED;
		}
		return response.body;
	} catch {
		return null;
	}
}
