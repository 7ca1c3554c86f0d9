/**
 * Editing the site's words (issue « Content, part 1 »): entries with a live revision, at most one draft beside it,
 * and a version that moves with every change. Every write names the version it was made from; a stale one is
 * refused with what is saved now (409, `StaleVersionError`), so a second tab or a second editor never overwrites
 * the first silently. Fields are checked for their shape when a draft is saved and against every rule when it is
 * published (src/lib/content/checks.ts). A publish is one transaction — the revision, the article's new address
 * and its redirect, the audit entry — and then purges exactly the pages it changed, on every instance.
 */
import { randomUUID } from 'node:crypto';
import { draftShape, publishProblems, DRAFT_MAX_BYTES } from '$lib/content/checks';
import {
	ARTICLE,
	ENTRIES,
	ENTRY_PATHS,
	LEGAL_PAGE_IDS,
	STALE_DRAFT_DAYS,
	articlePath,
	modelOf,
	type EntryKind,
	type Fields,
	type FixedEntryId
} from '$lib/content/model';
import { recordAudit, type AdminActor } from '../audit';
import type { Db, DbOrTx } from '../db';
import {
	ConflictError,
	NotFoundError,
	PayloadTooLargeError,
	StaleVersionError,
	ValidationError
} from '../errors';
import * as queries from './queries';

/** Where a change shows: the paths to purge, on every instance. */
export type Purge = (paths: string[]) => Promise<void>;

export interface ContentDeps {
	db: Db;
	purge: Purge;
	/** Today, as the legal pages' « Dernière mise à jour » says it (YYYY-MM-DD, Paris). */
	today?: () => string;
}

/** The company file is shown by every page (header, footer, legal texts): a change to it purges them all. */
export const BLOG_PATHS = ['/blog', '/blog/rss.xml', '/sitemap.xml'];

export interface EntrySummary {
	id: string;
	path: string | null;
	kind: EntryKind;
	label: string;
	title: string;
	version: number;
	hasDraft: boolean;
	published: boolean;
	draftSavedAt: Date | null;
	/** Who saved the draft last (an e-mail), while there is one. */
	draftSavedBy: string | null;
	updatedAt: Date;
}

const labelOf = (id: string, kind: EntryKind) => modelOf(id, kind).label;

export async function listEntries(db: DbOrTx): Promise<EntrySummary[]> {
	const rows = await queries.listEntries(db);
	return rows.map((row) => ({
		id: row.id,
		path: row.path,
		kind: row.kind as EntryKind,
		label: labelOf(row.id, row.kind as EntryKind),
		title: row.liveTitle ?? row.draftTitle ?? '',
		version: row.version,
		hasDraft: row.hasDraft,
		published: row.liveRevision !== null,
		draftSavedAt: row.draftSavedAt,
		draftSavedBy: row.draftSavedBy,
		updatedAt: row.updatedAt
	}));
}

export interface EntryDetail {
	id: string;
	path: string | null;
	kind: EntryKind;
	label: string;
	version: number;
	live: Fields | null;
	draft: Fields | null;
	draftSavedAt: Date | null;
	revisions: { n: number; publishedAt: Date; publishedBy: string | null; live: boolean }[];
	/** When the draft goes live by itself (« Publier le … à … »), or null. */
	scheduledAt: Date | null;
	/** The draft (or the live revision) rendered by the public page's own route; admin only. */
	previewUrl: string | null;
}

export async function entryDetail(db: DbOrTx, id: string): Promise<EntryDetail> {
	const row = await queries.entryById(db, id);
	if (!row) throw new NotFoundError('Page introuvable.');
	const kind = row.kind as EntryKind;
	const live =
		row.liveRevision === null ? null : ((await queries.revisionFields(db, id, row.liveRevision)) as Fields);
	const revisions = await queries.revisionsOf(db, id);
	return {
		id,
		path: row.path,
		kind,
		label: labelOf(id, kind),
		version: row.version,
		live,
		draft: (row.draft as Fields | null) ?? null,
		draftSavedAt: row.draftSavedAt,
		revisions: revisions.map((r) => ({ ...r, live: r.n === row.liveRevision })),
		scheduledAt: row.scheduledAt,
		previewUrl: previewUrlOf(row)
	};
}

export const PREVIEW_PARAMETER = 'apercu';

/** The public page's address with `?apercu=1`: the same route, reading the draft for an admin only. */
function previewUrlOf(row: queries.EntryRow): string | null {
	if (row.kind === 'company') return null;
	const draftSlug = row.kind === 'article' ? (row.draft as Fields | null)?.slug : null;
	const path = typeof draftSlug === 'string' && draftSlug ? articlePath(draftSlug) : row.path;
	return path ? `${path}?${PREVIEW_PARAMETER}=1` : null;
}

export async function staleError(db: DbOrTx, id: string): Promise<never> {
	const row = await queries.entryById(db, id);
	if (!row) throw new NotFoundError('Page introuvable.');
	const live = row.liveRevision === null ? null : await queries.revisionFields(db, id, row.liveRevision);
	throw new StaleVersionError({ version: row.version, draft: row.draft ?? null, live });
}

function shapedDraft(kind: EntryKind, id: string, raw: unknown): Fields {
	if (JSON.stringify(raw ?? null).length > DRAFT_MAX_BYTES)
		throw new PayloadTooLargeError('Le brouillon dépasse la taille permise (200 000 caractères).');
	const shaped = draftShape(modelOf(id, kind).fields, raw);
	if ('problems' in shaped) throw new ValidationError(shaped.problems, 'Le brouillon est mal formé.');
	return shaped.fields;
}

/**
 * Saves the draft if `version` is the entry's; otherwise 409 with what is saved now. Not in the audit trail (the
 * editor saves every few seconds): the entry names who saved it last.
 */
export async function saveDraft(db: DbOrTx, id: string, version: number, raw: unknown, admin: AdminActor) {
	const row = await queries.entryById(db, id);
	if (!row) throw new NotFoundError('Page introuvable.');
	const draft = shapedDraft(row.kind as EntryKind, id, raw);
	const next = await queries.saveDraft(db, id, version, draft, admin.id);
	if (next !== null) return { version: next };
	// From an older version, but the very draft saved now (a tab that signed in again sends what another already
	// saved): nothing to choose between, so no conflict — the version it is at.
	const now = await queries.entryById(db, id);
	if (now && now.draft && canonicalJson(now.draft) === canonicalJson(draft)) return { version: now.version };
	return staleError(db, id);
}

/** JSON with every object's keys in order: the same fields give the same text, however they were stored. */
function canonicalJson(value: unknown): string {
	return JSON.stringify(value, (_key, inner: unknown) =>
		inner && typeof inner === 'object' && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
			: inner
	);
}

/** « Annuler les modifications »: the draft goes (in the audit trail: work is dropped), the live revision stays. */
export async function discardDraft(db: Db, id: string, version: number, admin: AdminActor) {
	const next = await db.transaction(async (tx) => {
		const moved = await queries.discardDraft(tx, id, version);
		if (moved !== null)
			await recordAudit(tx, admin, {
				kind: 'content.draft_discarded',
				subjectType: 'content',
				subjectId: id
			});
		return moved;
	});
	if (next === null) return staleError(db, id);
	return { version: next };
}

/** Made once: a formatter built per call costs native memory and most of the call's time. */
const PARIS_DAY = new Intl.DateTimeFormat('en-CA', {
	timeZone: 'Europe/Paris',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit'
});
export const parisDay = () => PARIS_DAY.format(new Date());

const LEGAL_IDS = new Set<string>(LEGAL_PAGE_IDS);

/** Every page that shows the company file: all of them. */
export const pathsShowingCompany = (): string[] => [...Object.values(ENTRY_PATHS), ...BLOG_PATHS];

/** The paths a new live revision of this entry changes, besides its own address. */
function pathsShowing(kind: EntryKind, paths: (string | null)[]): string[] {
	if (kind === 'company') return pathsShowingCompany();
	const own = paths.filter((path): path is string => !!path);
	return kind === 'article' ? [...own, ...BLOG_PATHS] : own;
}

/**
 * One publish, in the transaction that locked the entry: the revision, the article's address (and the redirect
 * from its old one), the audit entry. Returns what to purge.
 */
export async function publishFields(
	tx: DbOrTx,
	row: queries.EntryRow,
	fields: Fields,
	admin: AdminActor,
	audit: { kind: 'content.published' | 'content.restored'; from?: number; scheduledFor?: Date },
	today: () => string,
	keepDraft: boolean
): Promise<{ n: number; version: number; paths: string[] }> {
	const kind = row.kind as EntryKind;
	if (LEGAL_IDS.has(row.id)) fields = { ...fields, updated: today() };
	const problems = publishProblems(modelOf(row.id, kind).fields, fields);
	if (Object.keys(problems).length)
		throw new ValidationError(problems, 'Certains champs empêchent la publication : le brouillon est gardé.');
	let path = row.path;
	if (kind === 'article') {
		path = articlePath(fields.slug as string);
		if (path !== row.path || row.liveRevision === null) {
			if (await queries.pathTaken(tx, path, row.id))
				throw new ValidationError(
					{ slug: ['Adresse (slug) : un autre article est déjà publié à cette adresse.'] },
					'Cette adresse est déjà prise.'
				);
			if (row.liveRevision !== null && row.path && row.path !== path)
				await queries.moveAddress(tx, row.path, path);
			else await queries.dropRedirectFrom(tx, path);
		}
	}
	const draft = keepDraft ? row.draft : null;
	const { n, version } = await queries.insertRevision(tx, row.id, fields, path, admin.id);
	if (draft !== null && keepDraft)
		await queries.saveDraft(tx, row.id, version, draft, row.draftSavedBy ?? admin.id);
	await recordAudit(tx, admin, {
		kind: audit.kind,
		subjectType: 'content',
		subjectId: row.id,
		changes: {
			revision: { before: audit.from ?? row.liveRevision, after: n },
			...(path !== row.path ? { path: { before: row.path, after: path } } : {}),
			...(audit.scheduledFor
				? { scheduledFor: { before: null, after: audit.scheduledFor.toISOString() } }
				: {})
		}
	});
	return {
		n,
		version: keepDraft && draft !== null ? version + 1 : version,
		paths: pathsShowing(kind, [row.path, path])
	};
}

/** The draft becomes the next live revision (400 naming the field when a rule fails, the draft kept; 409 when stale). */
export async function publish(deps: ContentDeps, id: string, version: number, admin: AdminActor) {
	const result = await deps.db.transaction(async (tx) => {
		const row = await queries.entryById(tx, id, true);
		if (!row) throw new NotFoundError('Page introuvable.');
		if (row.version !== version) return null;
		if (row.draft === null)
			throw new ValidationError(
				{ draft: ['Aucune modification à publier.'] },
				'Aucune modification à publier.'
			);
		const published = await publishFields(
			tx,
			row,
			row.draft as Fields,
			admin,
			{ kind: 'content.published' },
			deps.today ?? parisDay,
			false
		);
		// Published by hand: what was scheduled has happened.
		await queries.clearSchedule(tx, id);
		return published;
	});
	if (!result) return staleError(deps.db, id);
	await deps.purge(result.paths);
	return { version: result.version, revision: result.n };
}

/** A published revision's fields (« Restaurer » shows it, and what differs from the live one, before it asks). */
export async function revisionDetail(db: DbOrTx, id: string, number: string) {
	const n = /^[1-9]\d{0,8}$/.test(number) ? Number(number) : null;
	const fields = n === null ? null : await queries.revisionFields(db, id, n);
	if (fields === null) throw new NotFoundError(`La version ${number} n’existe pas.`);
	return { n: n!, fields: fields as Fields };
}

/** Publishes a copy of an earlier revision as a new one (history is never rewritten); the draft stays. */
/**
 * An earlier revision published again, if `version` is still the entry's (the editor's own, like a publish): two
 * admins — or one double click — restoring at once make one revision, and the other is told the page moved on.
 */
export async function restore(
	deps: ContentDeps,
	id: string,
	version: number,
	revision: number,
	admin: AdminActor
) {
	const result = await deps.db.transaction(async (tx) => {
		const row = await queries.entryById(tx, id, true);
		if (!row) throw new NotFoundError('Page introuvable.');
		if (row.version !== version) return null;
		const fields = await queries.revisionFields(tx, id, revision);
		if (fields === null) throw new NotFoundError(`La version ${revision} n’existe pas.`);
		return publishFields(
			tx,
			row,
			fields as Fields,
			admin,
			{ kind: 'content.restored', from: revision },
			deps.today ?? parisDay,
			true
		);
	});
	if (!result) return staleError(deps.db, id);
	await deps.purge(result.paths);
	return { version: result.version, revision: result.n };
}

export interface NewArticle {
	slug: string;
	title: string;
	description: string;
	body: string;
	cover?: { value: string; alt: string } | null;
}

/** A new article, as a draft (nothing public until it is published). */
export async function createArticle(db: DbOrTx, input: NewArticle, admin: AdminActor): Promise<EntryDetail> {
	const draft = shapedDraft('article', '', input);
	const slugProblem = publishProblems(
		ARTICLE.fields.filter((field) => field.key === 'slug'),
		draft
	);
	if (Object.keys(slugProblem).length) throw new ValidationError(slugProblem);
	const id = randomUUID();
	const path = articlePath(draft.slug as string);
	if (await queries.pathTaken(db, path, id))
		throw new ConflictError('Un article existe déjà à cette adresse : choisissez un autre slug.');
	const row = await db.transaction(async (tx) => {
		const inserted = await queries.insertArticle(tx, id, path, draft, admin.id);
		if (!inserted)
			throw new ConflictError('Un article existe déjà à cette adresse : choisissez un autre slug.');
		await recordAudit(tx, admin, { kind: 'article.created', subjectType: 'content', subjectId: id });
		return inserted;
	});
	return entryDetail(db, row.id);
}

/** Deletes an article (pages cannot be); its address answers 301 to /blog from then on. */
export async function deleteArticle(deps: ContentDeps, id: string, admin: AdminActor): Promise<void> {
	const paths = await deps.db.transaction(async (tx) => {
		const row = await queries.entryById(tx, id, true);
		if (!row) throw new NotFoundError('Article introuvable.');
		if (row.kind !== 'article')
			throw new ConflictError('Une page du site ne peut pas être supprimée : seuls les articles le peuvent.');
		if (row.liveRevision !== null && row.path) await queries.moveAddress(tx, row.path, '/blog');
		await queries.deleteEntry(tx, id);
		await recordAudit(tx, admin, {
			kind: 'article.deleted',
			subjectType: 'content',
			subjectId: id,
			changes: { revision: { before: row.liveRevision, after: null } }
		});
		return pathsShowing('article', [row.path]);
	});
	await deps.purge(paths);
}

/** Entries whose draft nobody has touched for STALE_DRAFT_DAYS: the dashboard's « À faire ». */
export async function staleDrafts(db: DbOrTx, now = new Date()) {
	const before = new Date(now.getTime() - STALE_DRAFT_DAYS * 86_400_000);
	const rows = await queries.draftsSavedBefore(db, before);
	return rows.map((row) => ({
		...row,
		// An article by its title; a page by its name.
		label: row.kind === 'article' && row.title ? row.title : labelOf(row.id, row.kind as EntryKind)
	}));
}

/** The fixed entries (pages and the company file), created with their revision 1 when missing. */
export async function seedMissing(db: DbOrTx, seed: () => Record<FixedEntryId, Fields>, have: Set<string>) {
	const missing = (Object.keys(ENTRIES) as FixedEntryId[]).filter((id) => !have.has(id));
	if (!missing.length) return 0;
	const fields = seed();
	let created = 0;
	for (const id of missing) {
		const path = id === 'company' ? null : ENTRY_PATHS[id];
		if (await queries.insertSeedEntry(db, { id, kind: ENTRIES[id].kind, path, fields: fields[id] }))
			created++;
	}
	return created;
}
