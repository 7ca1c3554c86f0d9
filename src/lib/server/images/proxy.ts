/**
 * GET /api/img/{key} (SEED.md part 4, CONTRACT §3): the bytes of a site image, streamed, never a redirect.
 * A `storage:` value gets a fresh 1-hour signed URL on every request and is fetched through it; an external
 * value is fetched under the SSRF rules of remote.ts. Any failure serves the slot's stock image, and when even
 * that cannot be reached, the page's bundled fallback — the site looks whole offline.
 */
import { Readable } from 'node:stream';
import type { Config } from '../config';
import type { DbOrTx } from '../db';
import { log } from '../log';
import type { ImageWidth } from '$lib/images';
import { FsStorage, storagePathOf, type Storage } from '../storage';
import { bundledFallback } from './fallbacks';
import { fetchExternalImage, fetchTrustedImage, type UpstreamImage } from './remote';
import { SIGNED_URL_SECONDS, storedValue } from './slot-values';
import {
	ANSWERED_BY,
	answerPlan,
	FALLBACK_CACHE_CONTROL,
	objectHead,
	PROXY_CACHE_CONTROL,
	sizedValue
} from './answer-plan';
import type { Slot } from './slots';

/**
 * Upstreams that just failed — before their headers or in the middle of a body, storage and external hosts
 * alike — are not asked again for a short while: offline, every image of a page would otherwise wait for its
 * own connection attempt before falling back, and a dead upstream would be retried on every hit.
 */
const FAILURE_MEMORY_MS = 30_000;
const recentFailures = new Map<string, number>();
const failedRecently = (url: string) => (recentFailures.get(url) ?? 0) > Date.now();
const rememberFailure = (url: string) => {
	if (recentFailures.size > 1000) recentFailures.clear();
	recentFailures.set(url, Date.now() + FAILURE_MEMORY_MS);
};

/**
 * What a request for a slot's image asks: a conditional GET, a HEAD, one of IMAGE_WIDTHS (null: full size), and
 * the `v` of the page that links it (null: none).
 */
export interface ImageRequest {
	ifNoneMatch: string | null;
	head: boolean;
	width?: ImageWidth | null;
	version?: string | null;
}

export interface ProxyDeps {
	storage: Storage;
	config: Pick<Config, 'imageRemoteHosts'>;
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
	return fetchTrustedImage(signed.href, { ifNoneMatch });
}

function respond(
	upstream: UpstreamImage,
	cacheControl: string,
	extra: Record<string, string>,
	head: boolean,
	onBodyError: (error: Error) => void = () => {}
): Response {
	const status = upstream.status === 304 ? 304 : 200;
	const headers = new Headers([
		...objectHead(
			{
				etag: upstream.etag,
				contentType: upstream.contentType,
				size: upstream.contentLength,
				lastModified: upstream.lastModified
			},
			cacheControl,
			status
		),
		...Object.entries(extra),
		[ANSWERED_BY, 'route']
	]);
	if (status === 304) return new Response(null, { status: 304, headers });
	if (head) {
		upstream.body.destroy();
		return new Response(null, { status: 200, headers });
	}
	// Streamed: memory does not grow with the image's size or the number of clients.
	return new Response(webBody(upstream.body, onBodyError), { status: 200, headers });
}

/**
 * The upstream's body as the web stream a Response takes. Headers are gone by the time a body fails: the response
 * can only be aborted (the web stream errors, adapter-node destroys the connection), and `onUpstreamError` learns
 * of it. A visitor who leaves midway also ends the body — adapter-node cancels it with the socket's error, which
 * Readable.toWeb passes to the upstream as its own — but that is no upstream failure: were it remembered as one,
 * any client resetting its connections would have every visitor served the stock image.
 */
function webBody(body: Readable, onUpstreamError: (error: Error) => void): ReadableStream<Uint8Array> {
	let cancelled = false;
	// Also keeps the error from being unhandled.
	body.once('error', (error) => {
		if (!cancelled) onUpstreamError(error);
	});
	const reader = (Readable.toWeb(body) as ReadableStream<Uint8Array>).getReader();
	return new ReadableStream<Uint8Array>(
		{
			async pull(controller) {
				const { done, value } = await reader.read();
				if (done) controller.close();
				else controller.enqueue(value);
			},
			cancel(reason) {
				cancelled = true;
				return reader.cancel(reason);
			}
		},
		{ highWaterMark: 0 }
	);
}

/** GET /api/img/{key}: reads the slot's value, then serves it; a database that cannot answer means the fallback. */
export async function serveSlot(
	deps: ProxyDeps & { db: DbOrTx },
	slot: Slot,
	request: ImageRequest
): Promise<Response> {
	let value: string | null;
	try {
		value = await storedValue(deps.db, slot.key);
	} catch (error) {
		log.warnRepeating(`image-value:${slot.key}`, 'site image value unreadable: serving the fallback', {
			key: slot.key,
			reason: reasonOf(error)
		});
		return serveFallback(slot, slot.defaultUrl, request);
	}
	return serveSlotImage(deps, slot, value, request);
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function serveSlotImage(
	deps: ProxyDeps,
	slot: Slot,
	storedValue: string | null,
	request: ImageRequest
): Promise<Response> {
	const chosen = storedValue ?? slot.defaultUrl;
	// Cached for good only under the URL of this very value: an old page's `v` gets today's image, briefly.
	const { sized, variant: isVariant, cacheControl } = answerPlan(chosen, request);
	// A storage that just failed is not asked for a variant first: straight to the value (and its fallback).
	if (sized !== chosen && !(isVariant && failedRecently(chosen))) {
		const response = await serveValue(deps, slot, sized, request, { quiet: isVariant, cacheControl });
		if (response) return response;
		// An upload made before widths existed has no variants: its full size is served instead. An external
		// host that failed at one width is not asked again at another: the fallback follows.
		if (!isVariant) return serveFallback(slot, chosen, request);
	}
	// A width the photo has no variant of (it is smaller, or older than widths): its full size is that width's
	// answer for good, cached as the value is.
	return (
		(await serveValue(deps, slot, chosen, request, { cacheControl })) ?? serveFallback(slot, chosen, request)
	);
}

/** One value through its upstream; null when that failed (remembered, and logged unless `quiet`). */
async function serveValue(
	deps: ProxyDeps,
	slot: Slot,
	value: string,
	request: ImageRequest,
	{ quiet = false, cacheControl = PROXY_CACHE_CONTROL } = {}
): Promise<Response | null> {
	const failedMidBody = (error: Error) => {
		rememberFailure(value);
		log.warnRepeating(`image-aborted:${slot.key}`, 'site image aborted mid-body', {
			key: slot.key,
			reason: error.message
		});
	};
	try {
		if (failedRecently(value)) throw new Error('upstream failed recently');
		const objectPath = storagePathOf(value);
		const upstream =
			objectPath !== null
				? await fetchFromStorage(deps, objectPath, request.ifNoneMatch)
				: await fetchExternalImage(value, deps.config.imageRemoteHosts, { ifNoneMatch: request.ifNoneMatch });
		return respond(upstream, cacheControl, {}, request.head, failedMidBody);
	} catch (error) {
		// A variant not made yet is no upstream failure: it is asked again next time.
		if (!quiet && !failedRecently(value)) rememberFailure(value);
		if (!quiet)
			log.warnRepeating(`image-fallback:${slot.key}`, 'site image fell back to its default', {
				key: slot.key,
				reason: reasonOf(error)
			});
		return null;
	}
}

/** The slot's stock image, or when even that is out of reach, the page's bundled image. */
async function serveFallback(slot: Slot, failedValue: string, request: ImageRequest): Promise<Response> {
	const { head } = request;
	const fallbackHeaders = { 'x-image-fallback': '1' };
	// The stock image is ours: it is fetched even when its host was dropped from IMAGE_REMOTE_HOSTS.
	const stock = sizedValue(slot.defaultUrl, request.width);
	if (failedValue !== slot.defaultUrl && !failedRecently(stock)) {
		try {
			const stockHost = new URL(stock).host;
			const upstream = await fetchExternalImage(stock, [stockHost]);
			return respond(upstream, FALLBACK_CACHE_CONTROL, fallbackHeaders, head, () => rememberFailure(stock));
		} catch {
			rememberFailure(stock);
		}
	}
	const bundled = bundledFallback(slot.page);
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
		head
	);
}
