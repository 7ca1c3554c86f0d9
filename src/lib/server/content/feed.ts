/**
 * The blog's RSS 2.0 feed (issue « Content, part 2 »): the 20 newest articles whole — `content:encoded` with the
 * rendered body, its links made absolute (a reader shows it away from the site), the cover as an `enclosure` with
 * its type and length, a guid that never changes (the entry's id: a renamed article is not new to a reader),
 * `lastBuildDate` the newest publish. Its entity tag is a digest of the document: a reader that holds it gets 304.
 *
 * Ten long articles make a feed of a megabyte: it is built once and kept until the next purge (a publish, the company
 * file), and compressed once per encoding — built and gzipped per request, it served 10 requests a second where a
 * legal page serves 470 (`npm run bench blog`).
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { company } from '$lib/company';
import { blogTitle } from '$lib/content/feed';
import { setBounded } from '../../bounded-map.js';
import type { Encoding } from '../http/compression';
import * as pageCache from '../pages/cache';
import type { Storage } from '../storage';
import { storagePathOf } from '../storage';
import { escapeXml } from '../xml';
import type { FeedItem } from './blog';

export interface FeedDocument {
	xml: string;
	etag: string;
	lastModified: Date | null;
}

/** A cover's bytes never change under its name (a new photo is a new name): each size is asked for once. */
const coverLengths = new Map<string, number>();
const COVER_LENGTHS_KEPT = 500;

async function coverLength(storage: Storage, value: string): Promise<number | null> {
	const known = coverLengths.get(value);
	if (known !== undefined) return known;
	const objectPath = storagePathOf(value);
	const info = objectPath ? await storage.stat(objectPath).catch(() => null) : null;
	if (!info) return null;
	setBounded(coverLengths, value, info.size, COVER_LENGTHS_KEPT);
	return info.size;
}

/** Site-relative links and images of rendered HTML, made absolute; `#anchors`, the article's own. */
export const absoluteLinks = (html: string, origin: string, articleUrl: string): string =>
	html.replace(/ (href|src)="\/(?!\/)/g, ` $1="${origin}/`).replace(/ href="#/g, ` href="${articleUrl}#`);

export async function feedDocument(
	items: FeedItem[],
	storage: Storage,
	urlOf: (path: string) => string
): Promise<FeedDocument> {
	const origin = new URL(urlOf('/')).origin;
	const newest = items.reduce<Date | null>((at, item) => {
		const updated = new Date(item.updatedAt);
		return !at || updated > at ? updated : at;
	}, null);
	const entries = await Promise.all(
		items.map(async (item) => {
			const link = urlOf(item.path);
			const length = item.coverValue ? await coverLength(storage, item.coverValue) : null;
			return [
				'<item>',
				`<title>${escapeXml(item.title)}</title>`,
				`<link>${escapeXml(link)}</link>`,
				`<guid isPermaLink="false">${escapeXml(`atelier-article-${item.id}`)}</guid>`,
				`<pubDate>${new Date(item.publishedAt).toUTCString()}</pubDate>`,
				`<description>${escapeXml(item.description)}</description>`,
				`<content:encoded>${escapeXml(absoluteLinks(item.html, origin, link))}</content:encoded>`,
				...(item.cover && length !== null
					? [
							`<enclosure url="${escapeXml(new URL(item.cover.src, origin).href)}" length="${length}" type="image/webp"/>`
						]
					: []),
				'</item>'
			].join('');
		})
	);
	const xml = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
		'<channel>',
		`<title>${escapeXml(blogTitle(company.brand))}</title>`,
		`<link>${escapeXml(urlOf('/blog'))}</link>`,
		`<atom:link href="${escapeXml(urlOf('/blog/rss.xml'))}" rel="self" type="application/rss+xml"/>`,
		`<description>${escapeXml(`Les articles de ${company.brand} : conseils aux artisans.`)}</description>`,
		'<language>fr-FR</language>',
		...(newest ? [`<lastBuildDate>${newest.toUTCString()}</lastBuildDate>`] : []),
		...entries,
		'</channel>',
		'</rss>',
		''
	].join('\n');
	return {
		xml,
		etag: `"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"`,
		lastModified: newest
	};
}

let kept: Promise<FeedDocument> | null = null;
/** Bumped by every purge: a build that began before one must not be kept. */
let generation = 0;
pageCache.onPurge(() => {
	generation++;
	kept = null;
});

/** The feed as `build` makes it, built once until the next purge; concurrent requests share one build. */
export function keptFeed(build: () => Promise<FeedDocument>): Promise<FeedDocument> {
	if (kept) return kept;
	const started = generation;
	const building = build();
	if (started === generation) kept = building;
	building.catch(() => {
		if (kept === building) kept = null;
	});
	return building;
}

const encodings = new WeakMap<FeedDocument, Partial<Record<Encoding, Buffer>>>();

/** The document in `encoding`, compressed the first time it is asked for (a middle level: a megabyte in ~20 ms). */
export function encodedFeed(feed: FeedDocument, encoding: Encoding): Buffer {
	let made = encodings.get(feed);
	if (!made) encodings.set(feed, (made = {}));
	return (made[encoding] ??=
		encoding === 'br'
			? brotliCompressSync(feed.xml, {
					params: {
						[constants.BROTLI_PARAM_QUALITY]: 5,
						[constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT
					}
				})
			: gzipSync(feed.xml, { level: 6 }));
}
