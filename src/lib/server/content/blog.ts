/**
 * The agency's articles as the public site shows them: /blog (newest first, paginated), /blog/{slug}, the RSS
 * feed and the sitemap's lines. Only published revisions, except for an admin's preview of a draft.
 */
import { ARTICLES_PER_PAGE, FEED_LENGTH, MOVED_MAX_AGE, articlePath, type Fields } from '$lib/content/model';
import type { ArticleCard, ArticleContent } from '$lib/content/pages';
import { srcsetOf } from '$lib/images';
import type { DbOrTx } from '../db';
import { imageVersion } from '../images';
import { filled, revisionShown, shown } from './live';
import * as queries from './queries';

type Row = { path: string | null; publishedAt: Date | null; updatedAt: Date | null; fields: unknown };

/** What a card shows, from the title, description and cover alone: no body is rendered for a list. */
function cardOf(row: Row, preview = false): ArticleCard {
	const { title, description, cover: rawCover } = row.fields as Fields;
	const fields = filled({ title, description, cover: rawCover });
	const cover = fields.cover as { value: string; alt: string; width?: number } | null;
	return {
		path: row.path!,
		title: String(fields.title),
		description: String(fields.description),
		publishedAt: (row.publishedAt ?? new Date()).toISOString(),
		updatedAt: (row.updatedAt ?? row.publishedAt ?? new Date()).toISOString(),
		cover: cover?.value ? coverImage(row.path!, cover, preview) : null
	};
}

/**
 * A cover photo, served at its article's address (`/blog/{slug}/couverture`) through the image pipeline, with the
 * widths the other managed photos offer; `?v=` names the photo, so that a new one is a new URL.
 */
function coverImage(path: string, cover: { value: string; alt: string; width?: number }, preview: boolean) {
	const src = `${path}/couverture?v=${imageVersion(cover.value)}${preview ? '&apercu=1' : ''}`;
	return { src, srcset: cover.width ? srcsetOf(src, cover.width) : '', alt: cover.alt };
}

export async function blogPage(db: DbOrTx, page: number) {
	const total = await queries.countPublishedArticles(db);
	const pages = Math.max(1, Math.ceil(total / ARTICLES_PER_PAGE));
	if (!Number.isInteger(page) || page < 1 || page > pages) return null;
	const rows = await queries.publishedArticleCards(db, ARTICLES_PER_PAGE, (page - 1) * ARTICLES_PER_PAGE);
	return { articles: rows.map((row) => cardOf(row)), page, pages, total };
}

export type ArticleAnswer = { article: ArticleContent; preview: boolean } | { redirect: string } | null;

/** The article at /blog/{slug}: live; a draft only for an admin's preview; 301 when its address moved. */
export async function articleAt(db: DbOrTx, slug: string, preview: boolean): Promise<ArticleAnswer> {
	const path = articlePath(slug);
	const found = await queries.articleAt(db, path);
	if (preview) {
		const entry = found?.entry ?? (await queries.articleByDraftSlug(db, slug));
		const fields = (entry?.draft ?? found?.fields) as Fields | null | undefined;
		if (entry && fields) {
			const card = cardOf(
				{ path, publishedAt: entry.firstPublishedAt, updatedAt: entry.updatedAt, fields },
				true
			);
			return { article: { ...card, html: shown(fields).html }, preview: true };
		}
	}
	if (found?.fields) {
		const card = cardOf({
			path,
			publishedAt: found.entry.firstPublishedAt,
			updatedAt: found.revisedAt,
			fields: found.fields
		});
		const { html } = revisionShown(found.entry.id, found.revision!, found.fields as Fields);
		return { article: { ...card, html }, preview: false };
	}
	if (found) return null;
	const to = await queries.redirectFrom(db, path);
	if (!to) return null;
	return (await servedBackAt(db, slug, to)) ?? { redirect: to };
}

/**
 * An article renamed A → B, then back to A within the time a browser may keep the 301 A → B (MOVED_MAX_AGE): a
 * browser that holds A → B and is now told B → A would go round (ERR_TOO_MANY_REDIRECTS). For that hour, B shows the
 * article itself, its canonical address A, instead of sending the reader back. (The first rename, A → B, is a plain
 * 301: nothing ever sent a browser from B to A.)
 */
async function servedBackAt(db: DbOrTx, slug: string, to: string): Promise<ArticleAnswer | null> {
	const target = await queries.articleAt(db, to);
	if (!target?.fields) return null;
	const history = await queries.slugHistory(db, target.entry.id);
	const lastHere = history.findLast((revision) => revision.slug === slug);
	const left = lastHere && history.find((revision) => revision.n > lastHere.n)?.publishedAt;
	const toSlug = to.slice(to.lastIndexOf('/') + 1);
	const sentHereFromThere = history.some((revision) => revision.slug === toSlug && revision.n < lastHere!.n);
	if (!left || !sentHereFromThere || Date.now() - left.getTime() > MOVED_MAX_AGE * 1000) return null;
	const card = cardOf({
		path: to,
		publishedAt: target.entry.firstPublishedAt,
		updatedAt: target.revisedAt,
		fields: target.fields
	});
	const { html } = revisionShown(target.entry.id, target.revision!, target.fields as Fields);
	return { article: { ...card, html }, preview: false };
}

/** An article as the feed carries it: its card, its entry's id (the guid), its body rendered, its cover's value. */
export interface FeedItem extends ArticleCard {
	id: string;
	html: string;
	coverValue: string | null;
}

export async function feedItems(db: DbOrTx): Promise<FeedItem[]> {
	const rows = await queries.publishedArticlesWhole(db, FEED_LENGTH);
	return rows.map((row) => ({
		...cardOf(row),
		id: row.id,
		html: revisionShown(row.id, row.revision, row.fields as Fields).html,
		coverValue: (row.fields as { cover?: { value?: string } | null }).cover?.value || null
	}));
}

export async function sitemapArticles(db: DbOrTx) {
	const rows = await queries.publishedArticlePaths(db, 50_000);
	return rows.map((row) => ({
		path: row.path!,
		lastmod: (row.updatedAt ?? row.publishedAt)!.toISOString().slice(0, 10)
	}));
}

/** The cover to serve at /blog/{slug}/couverture: the live revision's, or the draft's for an admin's preview. */
export async function coverAt(db: DbOrTx, slug: string, preview: boolean): Promise<string | null> {
	const answer = await articleAt(db, slug, preview);
	if (!answer || !('article' in answer)) return null;
	const found = await queries.articleAt(db, articlePath(slug));
	const entry = found?.entry ?? (answer.preview ? await queries.articleByDraftSlug(db, slug) : null);
	const fields = (answer.preview ? (entry?.draft ?? found?.fields) : found?.fields) as
		Fields | null | undefined;
	return (fields?.cover as { value?: string } | null | undefined)?.value ?? null;
}
