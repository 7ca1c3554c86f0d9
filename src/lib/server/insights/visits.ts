/**
 * The audience's writer (issue « Many instances, one site », point 1): every few seconds each instance tells the views
 * it counted (audience.ts) apart by visitor and adds them to the daily tables, against what every instance knows of
 * the day — its salt, each visitor's landing, the rows each visitor was counted in — kept in the database, so that a
 * person is one visitor, and their lead is attributed to their campaign, whatever instance answers each request.
 *
 * The day's salt is made by the first instance that needs it and deleted, with every visitor's hash and landing,
 * by the first write after the day has ended: as Plausible's, it is never kept past its day (and never in a backup).
 * Views of a day that has ended when they are written (a few seconds around midnight) are counted without their
 * visitor: no salt of a day that has ended is made again.
 */
import { randomBytes } from 'node:crypto';
import type { Db, DbOrTx } from '../db';
import { attribute, DayBook, rowHash, visitorHash, type Attributed, type Landing } from './attribution';
import { dayOf, overflowKey, visitOfKey, type Batch, type Hit, type PendingCounts } from './audience';
import * as queries from './queries';

/** A page's own mark among a visitor's rows of the day (no row key begins with this: they begin with the day). */
export const pageHash = (path: string) => rowHash(`page\u0001${path}`);

/** What one process keeps between writes: the salt of the day it read, and its bounds' books (audience.ts). */
export class AudienceLedger {
	private salts = new Map<string, string>();
	private books = new Map<string, DayBook>();
	/** The day before which this process last made sure nothing is left. */
	private forgottenBefore = '';

	/** The day's salt, made if no instance has yet. */
	async saltOf(db: DbOrTx, day: string): Promise<string> {
		let salt = this.salts.get(day);
		if (!salt) {
			salt = (await queries.daySalt(db, day, randomBytes(32).toString('base64url')))!;
			this.salts.set(day, salt);
		}
		return salt;
	}

	/** The day's salt when an instance has made it; null otherwise (nobody was counted that day). */
	async knownSaltOf(db: DbOrTx, day: string): Promise<string | null> {
		const salt = this.salts.get(day) ?? (await queries.daySalt(db, day, null));
		if (salt) this.salts.set(day, salt);
		return salt;
	}

	bookOf(day: string): DayBook {
		let book = this.books.get(day);
		if (!book) this.books.set(day, (book = new DayBook(day)));
		return book;
	}

	/** Once a day: the salts, hashes and landings of the days that have ended go, here and in the database. */
	async forgetEndedDays(db: DbOrTx, today: string): Promise<void> {
		if (this.forgottenBefore === today) return;
		await queries.forgetDaysBefore(db, today);
		for (const day of this.salts.keys()) if (day < today) this.salts.delete(day);
		for (const day of this.books.keys()) if (day < today) this.books.delete(day);
		this.forgottenBefore = today;
	}
}

/**
 * Adds a batch of views to the tables: the visitors' hashes and landings read for the batch, then — in one
 * transaction, so that a failed write can be retried whole — the visits that began, the rows each visitor was newly
 * counted in, and the counts.
 */
export async function writeVisits(db: Db, batch: Batch, ledger: AudienceLedger, now: Date): Promise<void> {
	const today = dayOf(now);
	const byDay = new Map<string, Hit[]>();
	for (const hit of batch.hits) {
		const hits = byDay.get(hit.day);
		if (hits) hits.push(hit);
		else byDay.set(hit.day, [hit]);
	}
	const attributedDays: { day: string; attributed: Attributed }[] = [];
	for (const [day, hits] of byDay) {
		const salt = day === today ? await ledger.saltOf(db, day) : null;
		// A visitor's views in one batch are hashed once.
		const hashes = new Map<string, string>();
		const visitors = hits.map((hit) => {
			if (salt === null) return null;
			const who = `${hit.address}\0${hit.agent}`;
			let hash = hashes.get(who);
			if (hash === undefined) hashes.set(who, (hash = visitorHash(salt, hit.address, hit.agent)));
			return hash;
		});
		const known =
			salt === null
				? new Map<string, Landing>()
				: await queries.landingsOf(db, day, [...new Set(visitors as string[])]);
		attributedDays.push({ day, attributed: attribute(hits, visitors, known, ledger.bookOf(day)) });
	}
	const counts: PendingCounts = { rows: new Map(), days: new Map(), pages: new Map(), events: batch.events };
	for (const [day, views] of batch.overflow)
		counts.rows.set(overflowKey(day), { views, visitors: 0, entries: 0 });
	if (!attributedDays.length && !counts.rows.size && !counts.events.size) return;
	await db.transaction(async (tx) => {
		for (const { day, attributed } of attributedDays) {
			const newVisitors = await queries.writeLandings(tx, day, attributed.landings);
			if (newVisitors) counts.days.set(day, newVisitors);
			const pairs: { visitor: string; row: string }[] = [];
			// And each visitor's pages: a page's visitors are people, counted once a day whatever their visits' sources.
			const pagePairs = new Set<string>();
			const pathOfHash = new Map<string, string>();
			for (const [key, visitors] of attributed.visitorsByRow) {
				const row = rowHash(key);
				const { path } = visitOfKey(key);
				const page = pageHash(path);
				pathOfHash.set(page, path);
				for (const visitor of visitors) {
					pairs.push({ visitor, row });
					if (!pagePairs.has(`${visitor}\u0001${page}`)) {
						pagePairs.add(`${visitor}\u0001${page}`);
						pairs.push({ visitor, row: page });
					}
				}
			}
			const added = await queries.addVisitorRows(tx, day, pairs);
			for (const [page, path] of pathOfHash) {
				const visitors = added.get(page);
				if (visitors) counts.pages.set(`${day}\u0001${path}`, visitors);
			}
			for (const [key, { views, entries }] of attributed.rows) {
				const before = counts.rows.get(key);
				counts.rows.set(key, {
					views: views + (before?.views ?? 0),
					entries: entries + (before?.entries ?? 0),
					visitors: (added.get(rowHash(key)) ?? 0) + (before?.visitors ?? 0)
				});
			}
		}
		await queries.addCounts(tx, counts);
	});
}

/** Where this visitor first came from today, when any instance saw them land; null otherwise. */
export async function landingOf(
	db: DbOrTx,
	ledger: AudienceLedger,
	address: string,
	agent: string,
	now: Date
): Promise<Landing['first'] | null> {
	const day = dayOf(now);
	const salt = await ledger.knownSaltOf(db, day);
	if (!salt) return null;
	const visitor = visitorHash(salt, address, agent);
	return (await queries.landingsOf(db, day, [visitor])).get(visitor)?.first ?? null;
}
