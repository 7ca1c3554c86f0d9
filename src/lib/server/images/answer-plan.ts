/**
 * What both ways of answering `/api/img/{key}` decide for a value, said once (issue « The house, part 5 », point 2):
 * the server entry's quick path (entry-answer.ts, stored photos it knows) and SvelteKit's route (proxy.ts, the
 * rest) ask `answerPlan` which object or URL a width names and which cache policy the answer carries, and
 * `objectHead` the headers of an answer of a known object. Pure: no storage, no database, no clock.
 */
import type { ImageWidth } from '$lib/images';
import { storagePathOf, toStorageValue } from '../storage';
import { variantPath } from '../imaging';
import { versionOf } from './slot-values';

/** An unversioned URL (`/api/img/hero`): the value behind it may change, so it is kept under an hour. */
export const PROXY_CACHE_CONTROL = 'public, max-age=3300, s-maxage=3300';
/** A versioned URL whose `v` is the current value's: those bytes never change behind it. */
export const VERSIONED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** A stand-in served because the upstream failed: kept briefly, so the real image replaces it soon. */
export const FALLBACK_CACHE_CONTROL = 'public, max-age=60';

/**
 * The same image at `width`: a stored upload's variant made at upload time (`<uuid>-w800.webp`), the stock host's
 * own width parameter (`w=`, with `h=` scaled to keep the crop), or — for a host without one — the image as it is.
 */
export function sizedValue(value: string, width: ImageWidth | null | undefined): string {
	if (!width) return value;
	const objectPath = storagePathOf(value);
	if (objectPath !== null) return toStorageValue(variantPath(objectPath, width));
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return value;
	}
	const w = Number(url.searchParams.get('w'));
	if (!w || w <= width) return value;
	const h = Number(url.searchParams.get('h'));
	url.searchParams.set('w', String(width));
	if (h) url.searchParams.set('h', String(Math.round((h * width) / w)));
	return url.href;
}

/**
 * Which way answered (`entry`: the server entry's quick path; `route`: SvelteKit's route): the tests and an operator
 * reading a response tell the two apart by it, since both say the same otherwise.
 */
export const ANSWERED_BY = 'x-image-answer';

/** A request as the plan reads it: the width asked (null: full size) and the `v` of the page that links it. */
export interface PlannedRequest {
	width?: ImageWidth | null;
	version?: string | null;
}

export interface AnswerPlan {
	/** The value to fetch: the stored variant or the stock host's width, or the value itself. */
	sized: string;
	/** The stored object `sized` names; null for an external image. */
	objectPath: string | null;
	/** Whether `sized` is a stored variant (which may not be made yet: then the full size answers). */
	variant: boolean;
	/** Whether the URL's `v` is this value's: its bytes never change behind it. */
	versioned: boolean;
	cacheControl: string;
}

/** Whether a URL's `v` names this very value (`version`: the value's, computed once by a caller that keeps it). */
export const isVersioned = (requested: string | null | undefined, version: string) =>
	!!requested && requested === version;

/** What a width asks of a value: the part of the plan that depends on nothing else (the entry keeps it per URL). */
export function widthPlan(
	value: string,
	width: ImageWidth | null | undefined
): Pick<AnswerPlan, 'sized' | 'objectPath' | 'variant'> {
	const sized = sizedValue(value, width);
	const objectPath = storagePathOf(sized);
	return { sized, objectPath, variant: sized !== value && objectPath !== null };
}

export function answerPlan(value: string, request: PlannedRequest, version = versionOf(value)): AnswerPlan {
	const versioned = isVersioned(request.version, version);
	return {
		...widthPlan(value, request.width),
		versioned,
		cacheControl: versioned ? VERSIONED_CACHE_CONTROL : PROXY_CACHE_CONTROL
	};
}

/** What an answer says of the object it sends (a 304 says its ETag only). */
export interface ObjectInfo {
	etag: string | null;
	contentType: string;
	size: number | null;
	lastModified: string | null;
}

/** The headers of an answer of `object` under `cacheControl`, as name/value pairs in the order they are sent. */
export function objectHead(object: ObjectInfo, cacheControl: string, status: 200 | 304): [string, string][] {
	const head: [string, string][] = [
		['cache-control', cacheControl],
		['x-robots-tag', 'noindex, nofollow']
	];
	if (object.etag) head.push(['etag', object.etag]);
	if (status === 304) return head;
	head.push(['content-type', object.contentType]);
	if (object.size !== null) head.push(['content-length', String(object.size)]);
	if (object.lastModified) head.push(['last-modified', object.lastModified]);
	return head;
}
