/**
 * GET /api/img/{key} (SEED.md part 4, CONTRACT §3): the bytes of a site image, streamed, never a redirect.
 * A `storage:` value gets a fresh 1-hour signed URL on every request and is fetched through it; an external
 * value is fetched under the SSRF rules of remote.ts. Any failure serves the slot's stock image, and when even
 * that cannot be reached, the page's bundled fallback — the site looks whole offline.
 *
 * An upstream may also fail once its headers are passed on (a cut connection, a stall, a file that shrank): then
 * that one response is cut, the failure logged and remembered — never an unhandled stream error, which would stop
 * the whole process.
 */
import { Readable } from 'node:stream';
import type { Config } from '../config';
import { log } from '../log';
import { FsStorage, storagePathOf, type Storage } from '../storage';
import homeFallback from './fallback/home.webp?inline';
import maconFallback from './fallback/macon.webp?inline';
import paysagisteFallback from './fallback/paysagiste.webp?inline';
import { BODY_STALL_MS, fetchExternalImage, fetchTrustedImage, type UpstreamImage } from './remote';
import type { SitePage, Slot } from './slots';

export const SIGNED_URL_SECONDS = 60 * 60;
export const PROXY_CACHE_CONTROL = 'public, max-age=3300, s-maxage=3300';
export const FALLBACK_CACHE_CONTROL = 'public, max-age=60';

const dataUrlBytes = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
const BUNDLED: Record<SitePage, Buffer> = {
	'/': dataUrlBytes(homeFallback),
	'/macon': dataUrlBytes(maconFallback),
	'/paysagiste': dataUrlBytes(paysagisteFallback)
};

/**
 * Upstreams that just failed are not asked again for a short while: offline, every image of a page would
 * otherwise wait for its own connection attempt before falling back, and a host that cuts or stalls its answers
 * would be retried — and hold a connection — on every hit. A failure counts whether it happens before the
 * answer's headers or in the middle of its body. External URLs are remembered by URL; storage objects by path,
 * per storage (one in production; tests make several).
 */
const FAILURE_MEMORY_MS = 30_000;

class FailureMemory {
	private readonly until = new Map<string, number>();
	failedRecently(key: string): boolean {
		return (this.until.get(key) ?? 0) > Date.now();
	}
	remember(key: string): void {
		if (this.until.size > 1000) this.until.clear();
		this.until.set(key, Date.now() + FAILURE_MEMORY_MS);
	}
}

const externalFailures = new FailureMemory();
const storageFailures = new WeakMap<Storage, FailureMemory>();
function storageMemory(storage: Storage): FailureMemory {
	let memory = storageFailures.get(storage);
	if (!memory) storageFailures.set(storage, (memory = new FailureMemory()));
	return memory;
}

export class ImageStreamError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ImageStreamError';
	}
}

export interface ProxyDeps {
	storage: Storage;
	config: Pick<Config, 'imageRemoteHosts'>;
	/** Time limits in ms; the defaults unless given (tests). */
	limits?: { headers?: number; bodyStall?: number };
}

interface Source {
	/** For the log: which upstream this was. */
	kind: 'storage' | 'external' | 'stock';
	memory: FailureMemory;
	/** Its key in `memory`. */
	id: string;
}

const reasonOf = (error: unknown): string => {
	if (!(error instanceof Error)) return String(error);
	// undici reports a cut connection as "terminated", the detail being in its cause.
	const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
	return `${error.message}${cause}`;
};

/**
 * An upstream body as a web stream that cannot hang or take the process down: each chunk must come within the
 * stall limit, and the body must have the length its headers announced. On any failure the upstream is
 * destroyed, the response errored — the server then cuts the connection, so the client sees a short answer,
 * not a hang — the failure is logged and remembered. A client that goes away is not an upstream failure.
 */
function guardedBody(
	upstream: UpstreamImage,
	stallMs: number,
	onFailure: (error: Error, bytes: number) => void
): ReadableStream<Uint8Array> {
	const source = upstream.body;
	const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
	const expected = upstream.contentLength;
	let bytes = 0;
	let settled = false;
	const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: Error) => {
		settled = true;
		source.destroy();
		onFailure(error, bytes);
		controller.error(error);
	};
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			let timer: NodeJS.Timeout | undefined;
			const stalled = new Promise<never>((_, reject) => {
				timer = setTimeout(() => reject(new ImageStreamError(`upstream stalled for ${stallMs} ms`)), stallMs);
			});
			try {
				const next = await Promise.race([chunks.next(), stalled]);
				if (next.done) {
					if (expected !== null && bytes !== expected)
						throw new ImageStreamError(`upstream body ended at ${bytes} of ${expected} bytes`);
					settled = true;
					controller.close();
					return;
				}
				bytes += next.value.length;
				if (expected !== null && bytes > expected)
					throw new ImageStreamError(`upstream body longer than its ${expected} bytes`);
				controller.enqueue(next.value);
			} catch (error) {
				if (!settled) fail(controller, error instanceof Error ? error : new Error(String(error)));
			} finally {
				clearTimeout(timer);
			}
		},
		cancel() {
			settled = true;
			source.destroy();
		}
	});
}

async function fetchFromStorage(
	deps: ProxyDeps,
	objectPath: string,
	ifNoneMatch: string | null
): Promise<UpstreamImage> {
	const signed = new URL(await deps.storage.signedUrl(objectPath, SIGNED_URL_SECONDS));
	if (deps.storage instanceof FsStorage) {
		// The fs driver's URL points at this very app: read it as its route would, without an HTTP round trip.
		const read = await deps.storage.readSigned(objectPath, signed.searchParams, ifNoneMatch);
		if (read.outcome === 'forbidden' || read.outcome === 'missing')
			throw new Error(`signed read: ${read.outcome}`);
		const { info } = read;
		if (read.outcome === 'not-modified') {
			return {
				status: 304,
				contentType: '',
				contentLength: null,
				etag: info.etag,
				lastModified: null,
				body: Readable.from([])
			};
		}
		return {
			status: 200,
			contentType: info.contentType,
			contentLength: info.size,
			etag: info.etag,
			lastModified: info.lastModified.toUTCString(),
			body: read.body
		};
	}
	return fetchTrustedImage(signed.href, { ifNoneMatch, headersTimeoutMs: deps.limits?.headers });
}

function respond(
	upstream: UpstreamImage,
	cacheControl: string,
	extra: Record<string, string>,
	request: { head: boolean; slot: Slot; source: Source | null; stallMs: number }
): Response {
	const headers = new Headers({
		'cache-control': cacheControl,
		'x-robots-tag': 'noindex, nofollow',
		...extra
	});
	if (upstream.etag) headers.set('etag', upstream.etag);
	if (upstream.status === 304) {
		upstream.body.destroy();
		return new Response(null, { status: 304, headers });
	}
	headers.set('content-type', upstream.contentType);
	if (upstream.contentLength !== null) headers.set('content-length', String(upstream.contentLength));
	if (upstream.lastModified) headers.set('last-modified', upstream.lastModified);
	if (request.head) {
		upstream.body.destroy();
		return new Response(null, { status: 200, headers });
	}
	const { slot, source } = request;
	// Streamed: memory does not grow with the image's size or the number of clients.
	const body = guardedBody(upstream, request.stallMs, (error, bytes) => {
		source?.memory.remember(source.id);
		log.warn('site image stream failed after its headers; response cut', {
			key: slot.key,
			upstream: source?.kind ?? 'bundled',
			bytes,
			reason: reasonOf(error)
		});
	});
	return new Response(body, { status: 200, headers });
}

export interface ImageRequest {
	ifNoneMatch: string | null;
	head: boolean;
}

export async function serveSlotImage(
	deps: ProxyDeps,
	slot: Slot,
	storedValue: string | null,
	request: ImageRequest
): Promise<Response> {
	const value = storedValue ?? slot.defaultUrl;
	const objectPath = storagePathOf(value);
	const source: Source =
		objectPath !== null
			? { kind: 'storage', memory: storageMemory(deps.storage), id: objectPath }
			: { kind: 'external', memory: externalFailures, id: value };
	const stallMs = deps.limits?.bodyStall ?? BODY_STALL_MS;
	if (!source.memory.failedRecently(source.id)) {
		try {
			const upstream =
				objectPath !== null
					? await fetchFromStorage(deps, objectPath, request.ifNoneMatch)
					: await fetchExternalImage(value, deps.config.imageRemoteHosts, {
							ifNoneMatch: request.ifNoneMatch,
							headersTimeoutMs: deps.limits?.headers
						});
			return respond(upstream, PROXY_CACHE_CONTROL, {}, { head: request.head, slot, source, stallMs });
		} catch (error) {
			source.memory.remember(source.id);
			log.warn('site image fell back to its default', { key: slot.key, reason: reasonOf(error) });
		}
	}
	return serveFallbackImage(deps, slot, request, value);
}

/**
 * The image served when a slot's own cannot be: its stock image, or when even that cannot be reached, the page's
 * bundled one. Marked `X-Image-Fallback: 1` and cached briefly, so that the real image is back soon after its
 * upstream. `failedValue` is the value that failed; absent when it is unknown (the database is out of reach).
 */
export async function serveFallbackImage(
	deps: ProxyDeps,
	slot: Slot,
	request: ImageRequest,
	failedValue?: string
): Promise<Response> {
	const fallbackHeaders = { 'x-image-fallback': '1' };
	const stallMs = deps.limits?.bodyStall ?? BODY_STALL_MS;
	// The stock image is ours: it is fetched even when its host was dropped from IMAGE_REMOTE_HOSTS.
	if (failedValue !== slot.defaultUrl && !externalFailures.failedRecently(slot.defaultUrl)) {
		const source: Source = { kind: 'stock', memory: externalFailures, id: slot.defaultUrl };
		try {
			const stockHost = new URL(slot.defaultUrl).host;
			const upstream = await fetchExternalImage(slot.defaultUrl, [stockHost], {
				headersTimeoutMs: deps.limits?.headers
			});
			return respond(upstream, FALLBACK_CACHE_CONTROL, fallbackHeaders, {
				head: request.head,
				slot,
				source,
				stallMs
			});
		} catch {
			externalFailures.remember(slot.defaultUrl);
		}
	}
	const bundled = BUNDLED[slot.page];
	return respond(
		{
			status: 200,
			contentType: 'image/webp',
			contentLength: bundled.length,
			etag: null,
			lastModified: null,
			body: Readable.from([bundled])
		},
		FALLBACK_CACHE_CONTROL,
		fallbackHeaders,
		{ head: request.head, slot, source: null, stallMs }
	);
}
