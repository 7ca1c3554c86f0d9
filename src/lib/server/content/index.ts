/**
 * The site's words: the domain's whole surface, bound to the application's services (app.ts). Every public page
 * that carries text reads its entry here (live, or the draft for an admin's preview), the admin edits entries
 * here, and the blog's pages, feed and sitemap lines come from here. Showcase mode keeps its Markdown files
 * (src/lib/server/showcase), read with this folder's file reader (files.ts).
 */
import type { Fields, LegalPageId, PageId } from '$lib/content/model';
import { demoSite, type DemoId, type PageContents } from '$lib/content/pages';
import { onProgrammeRenamed } from '$lib/company';
import { appDeps } from '../app';
import type { AdminActor } from '../audit';
import * as pageCache from '../pages/cache';
import * as blog from './blog';
import { feedDocument, keptFeed } from './feed';
import { canonicalUrl as canonicalUrlOf } from '../pages/seo';
import { legalContent } from './legal';
import { hasArticles, liveFixed, livePage, shown } from './live';
import * as queries from './queries';
import * as schedule from './schedule';
import * as service from './service';

/** Whether this request asked for the preview (`?apercu=1`) and may have it: only an admin gets the draft. */
export const isPreview = (url: URL, user: { isAdmin: boolean } | null): boolean =>
	!!user?.isAdmin && url.searchParams.has(service.PREVIEW_PARAMETER);

// The programme's name (the course's, company.training.name) is on the pages that show the company file: when it
// changes, this instance's copies of them go (each instance learns of it from the course's own announcement).
onProgrammeRenamed(() => {
	for (const path of service.pathsShowingCompany()) pageCache.pageCache.purgeLocal(path);
});

const deps = (): service.ContentDeps => ({
	db: appDeps().db,
	purge: async (paths) => {
		for (const path of new Set(paths)) await pageCache.purge(path);
	}
});

/** A page's fields as shown: live for everyone, the draft (when there is one) for an admin's preview. */
export async function page<Id extends PageId>(id: Id, preview = false): Promise<PageContents[Id]> {
	const { db } = appDeps();
	if (preview) {
		const detail = await service.entryDetail(db, id);
		const fields = detail.draft ?? detail.live;
		if (fields) return asPage<Id>(shown(fields));
	}
	return asPage<Id>(await livePage(db, id));
}

/**
 * Stored fields as their page's type: what was stored passed the model's own checks (`draftShape` when saved,
 * `publishProblems` when published), and the type is read from the same model (`EntryFields`).
 */
const asPage = <Id extends PageId>(fields: Fields & { html: string }) => fields as PageContents[Id];

/** A demo business as its live page shows it (its name and number sign the e-mails of its quote form). */
export const demo = async (id: DemoId) => demoSite(id, await page(id), '');

/** A legal page as LegalPage.svelte shows it. */
export const legalPage = async (id: LegalPageId, preview = false) => legalContent(await page(id, preview));

/** Whether the header links the blog (platform mode, one article published at least); no query per page. */
export const blogLinked = () => hasArticles(appDeps().db).catch(() => false);

/** Reads the live content once at start (and writes revision 1 where it is missing). */
export const warmUp = () => liveFixed(appDeps().db);

export const entries = () => service.listEntries(appDeps().db);
export const entry = (id: string) => service.entryDetail(appDeps().db, id);
export const saveDraft = (id: string, version: number, draft: unknown, admin: AdminActor) =>
	service.saveDraft(appDeps().db, id, version, draft, admin);
export const discardDraft = (id: string, version: number, admin: AdminActor) =>
	service.discardDraft(appDeps().db, id, version, admin);
export const publish = (id: string, version: number, admin: AdminActor) =>
	service.publish(deps(), id, version, admin);
/** « Publier le … à … »: 202 with `{ version, scheduledAt }` (schedule.ts). */
export const schedulePublish = (id: string, version: number, at: Date, admin: AdminActor) =>
	schedule.schedulePublish(appDeps().db, id, version, at, admin);
export const cancelSchedule = (id: string, admin: AdminActor) =>
	schedule.cancelSchedule(appDeps().db, id, admin);
/** Publishes what is due (maintenance.ts, every half-minute on every instance; each entry once). */
export const publishDue = () => schedule.publishDue(deps());
/** What is scheduled, soonest first: the dashboard's « À faire ». */
export const scheduled = () => queries.scheduledEntries(appDeps().db);
export const revision = (id: string, n: string) => service.revisionDetail(appDeps().db, id, n);
export const restore = (id: string, version: number, revision: number, admin: AdminActor) =>
	service.restore(deps(), id, version, revision, admin);
export const createArticle = (input: service.NewArticle, admin: AdminActor) =>
	service.createArticle(appDeps().db, input, admin);
export const deleteArticle = (id: string, admin: AdminActor) => service.deleteArticle(deps(), id, admin);
export const staleDrafts = () => service.staleDrafts(appDeps().db);

export const blogPage = (n: number) => blog.blogPage(appDeps().db, n);
export const article = (slug: string, preview: boolean) => blog.articleAt(appDeps().db, slug, preview);
/** The RSS feed's document, its entity tag and the newest publish (feed.ts). */
export const feed = () =>
	keptFeed(async () => feedDocument(await blog.feedItems(appDeps().db), appDeps().storage, canonicalUrlOf));
export { encodedFeed } from './feed';
/** The `storage:` value of an article's cover (the draft's in an admin's preview), or null. */
export const coverOf = (slug: string, preview: boolean) => blog.coverAt(appDeps().db, slug, preview);
export const sitemapArticles = () => blog.sitemapArticles(appDeps().db);
/** Where an address that moved answers now (301), or null. */
export const movedTo = (path: string) => queries.redirectFrom(appDeps().db, path);

export { fillPlaceholdersOrThrow, parseContentFile, type ParsedFile } from './files';
/** The absolute address of a page of this site (canonical links, the feed). */
export { canonicalUrl } from '../pages/seo';
export type { EntryDetail, EntrySummary, NewArticle } from './service';
