/**
 * What the public site reads of the entries (issue « Content, part 1 »): the live revision of every page and of
 * the company file, loaded in one query and kept in memory until a purge (a publish here, or on another instance
 * through the page cache's NOTIFY) — a page render costs no query for its words. Loading it also makes the
 * company file's live revision the one `$lib/company` gives everyone (e-mails, the attestation, the footer), and
 * creates what is missing from the seed (the first start after the upgrade: today's words become revision 1).
 */
import { fillPlaceholders } from '$lib/content/checks';
import { internationalPhone } from '$lib/content/phone';
import type { Fields, PageId } from '$lib/content/model';
import { showCompany, type Company } from '$lib/company';
import { renderMarkdown } from '$lib/markdown';
import { seedFields } from '$content/agency/seed';
import { setBounded } from '../../bounded-map.js';
import type { DbOrTx } from '../db';
import { log } from '../log';
import * as pageCache from '../pages/cache';
import * as queries from './queries';
import { seedMissing } from './service';

let memo: Promise<Map<string, Fields>> | null = null;
/** Bumped by every purge: a load that began before one must not show the company file it read. */
let generation = 0;
let reload: (() => void) | null = null;

/** Whether the blog has a published article (the header links it then), known until the next purge. */
let articles: Promise<boolean> | null = null;

/** One reload for the paths a publish purges together (the company file's are a dozen). */
let reloadScheduled = false;

pageCache.onPurge(() => {
	generation++;
	memo = null;
	articles = null;
	// The company file reaches e-mails and documents too, not only pages: read it again now, not at the next visit.
	if (reload && !reloadScheduled) {
		reloadScheduled = true;
		setTimeout(() => {
			reloadScheduled = false;
			reload?.();
		}, 0);
	}
});

async function load(db: DbOrTx, started: number): Promise<Map<string, Fields>> {
	let rows = await queries.selectLiveFixed(db);
	const created = await seedMissing(db, seedFields, new Set(rows.map((row) => row.id)));
	if (created) {
		log.info('content: revision 1 written from the seed', { entries: created });
		rows = await queries.selectLiveFixed(db);
	}
	const live = new Map(rows.map((row) => [row.id, row.fields as Fields]));
	const company = live.get('company');
	if (company && started === generation) showCompany(withPhoneHref(company));
	return live;
}

/**
 * The company file with its number's international form derived from it (revisions before 0.6 wrote both). Its
 * fields passed the model's checks when published; `Company` is the seed's shape, which the model holds.
 */
const withPhoneHref = (fields: Fields) =>
	({ ...fields, phoneHref: internationalPhone(String(fields.phone ?? '')) ?? fields.phoneHref }) as Company;

/** Every fixed entry's live fields (placeholders not filled). */
export function liveFixed(db: DbOrTx): Promise<Map<string, Fields>> {
	reload ??= () => void liveFixed(db).catch(() => {});
	if (!memo) {
		const loading = load(db, generation);
		memo = loading;
		loading.catch(() => {
			if (memo === loading) memo = null;
		});
	}
	return memo;
}

/** Every text of `fields` with its `{{company.…}}` filled from the live company file. */
export function filled<T>(value: T): T {
	if (typeof value === 'string') return fillPlaceholders(value) as T;
	if (Array.isArray(value)) return value.map(filled) as T;
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, filled(inner)])) as T;
	return value;
}

type Shown = Fields & { html: string };

/** A page's fields as the page shows them: placeholders filled, `body` rendered to `html`. */
export function shown(fields: Fields): Shown {
	const out = filled(fields);
	return { ...out, html: typeof out.body === 'string' && out.body.trim() ? renderMarkdown(out.body) : '' };
}

/**
 * Markdown is rendered once per revision, never per request: the live pages' fields are rendered once per load of
 * the live content (`liveShown`, keyed by the loaded object), an article's live revision once per entry and revision
 * number (`revisionShown`). Both go with every purge — a publish, and the company file, whose placeholders every
 * rendered text may hold. Drafts (an admin's preview) are rendered as they are asked for.
 */
const shownLive = new WeakMap<Fields, Shown>();
const shownRevisions = new Map<string, Shown>();
/** Articles kept rendered: more than a feed and a page of the blog; the oldest read goes first. */
const SHOWN_REVISIONS_KEPT = 200;
pageCache.onPurge(() => shownRevisions.clear());

function liveShown(fields: Fields): Shown {
	let out = shownLive.get(fields);
	if (!out) shownLive.set(fields, (out = shown(fields)));
	return out;
}

/** An article's live revision as shown, rendered the first time it is asked for. */
export function revisionShown(entryId: string, revision: number, fields: Fields): Shown {
	const key = `${entryId}#${revision}`;
	const out = shownRevisions.get(key) ?? shown(fields);
	setBounded(shownRevisions, key, out, SHOWN_REVISIONS_KEPT);
	return out;
}

export async function livePage(db: DbOrTx, id: PageId) {
	const fields = (await liveFixed(db)).get(id);
	if (!fields) throw new Error(`content: no live revision of ${id}`);
	return liveShown(fields);
}

/** Whether any article is published: the header shows « Blog » only then (a site without articles is unchanged). */
export function hasArticles(db: DbOrTx): Promise<boolean> {
	if (!articles) {
		const counting = queries.countPublishedArticles(db).then((n) => n > 0);
		articles = counting;
		counting.catch(() => {
			if (articles === counting) articles = null;
		});
	}
	return articles;
}
