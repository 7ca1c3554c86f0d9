/**
 * How one day's views are told apart (issue "Insights", point 1): where each visit begins, which source each page is
 * counted under, and which rows each visitor is counted in — bounded as AUDIENCE_BOUNDS says. The writer (visits.ts)
 * runs it on each batch the tally (audience.ts) gave it, from where each visitor stood before (the database's
 * landings). Pure: no database, no clock.
 */
import { createHash } from 'node:crypto';
import {
	AUDIENCE_BOUNDS,
	keyOf,
	MAX_AGENT,
	OTHER_PAGES,
	OTHER_SOURCES,
	sameSource,
	type Hit,
	type Source,
	type Visit
} from './audience';

/** Where a visitor of the day is: the source of their current visit, and where they first came from. */
export interface Landing {
	visit: Source;
	first: Source & { path: string };
}

/** The visitor's hash for the day: salted with the day's salt, so it means nothing the next day. */
export const visitorHash = (salt: string, address: string, agent: string) =>
	createHash('sha256')
		.update(salt)
		.update(address)
		.update('\0')
		// As the tally keeps it: a lead's request, hashed whole, finds the visitor its views were counted under.
		.update(agent.slice(0, MAX_AGENT))
		.digest('base64url');

/** A row's name among a visitor's rows: a hash of its key (the key itself is up to 700 characters). */
export const rowHash = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);

/**
 * What one process counted of one day, to bound it (AUDIENCE_BOUNDS): every row it counted → its index, how many
 * rows it sent to « (autres) », how many visitors and (visitor, row) pairs it added.
 */
export class DayBook {
	readonly rows = new Map<string, number>();
	overflowRows = 0;
	visitorsAdded = 0;
	pairsAdded = 0;
	constructor(readonly day: string) {}

	/** The visit's row, or the « (autres) » one its bounds send it to. */
	boundedKey(visit: Visit): string {
		let key = keyOf(visit);
		if (this.rows.has(key)) return key;
		if (this.rows.size - this.overflowRows >= AUDIENCE_BOUNDS.rows) {
			key = keyOf({ ...visit, ...OTHER_SOURCES });
			if (!this.rows.has(key)) {
				if (this.overflowRows >= AUDIENCE_BOUNDS.overflowRows)
					key = keyOf({ ...visit, ...OTHER_SOURCES, path: OTHER_PAGES });
				if (!this.rows.has(key)) this.overflowRows++;
			}
		}
		if (!this.rows.has(key)) this.rows.set(key, this.rows.size);
		return key;
	}
}

/** One day's views, told apart: what to add to the tables, the landings to write, the visitors of each row. */
export interface Attributed {
	rows: Map<string, { views: number; entries: number }>;
	/** Row key → the visitors this batch counted in it: the database keeps those it had not (once per row). */
	visitorsByRow: Map<string, Set<string>>;
	/** The visitors whose visit began in this batch, with where they are now. */
	landings: Map<string, Landing>;
}

/**
 * Tells one day's views apart, in the order they came, from where each visitor stood before the batch (`known`,
 * read from the database: any instance may have seen them). `visitors` gives each view's visitor hash, or null when
 * the visitor cannot be told (no salt for a day already ended, or past the bounds): a view without a visitor is
 * counted under its own source and begins no visit.
 *
 * A visit begins with the visitor's first page of the day, or with a page reached from another site or a campaign
 * than the visit's own; every other page is counted under the source of the visit it belongs to (as Plausible
 * counts a session's pages under its entry's source), so that a source's figures are its visitors' pages, not only
 * their first. What a lead or candidature sent later is attributed to is the first landing of the day, or the first
 * that came from another site or a campaign.
 */
export function attribute(
	hits: readonly Hit[],
	visitors: readonly (string | null)[],
	known: ReadonlyMap<string, Landing>,
	book: DayBook
): Attributed {
	const result: Attributed = { rows: new Map(), visitorsByRow: new Map(), landings: new Map() };
	const landingOf = (visitor: string) => result.landings.get(visitor) ?? known.get(visitor);
	hits.forEach((hit, i) => {
		let visitor = visitors[i] ?? null;
		let landing = visitor === null ? undefined : landingOf(visitor);
		if (visitor !== null && !landing) {
			if (book.visitorsAdded >= AUDIENCE_BOUNDS.visitors) visitor = null;
			else book.visitorsAdded++;
		}
		const { from } = hit;
		const fromOutside = Boolean(from.referrerHost || from.utmSource || from.utmCampaign);
		const entry = visitor !== null && (!landing || (fromOutside && !sameSource(from, landing.visit)));
		const source = fromOutside || !landing ? from : landing.visit;
		const key = book.boundedKey({ day: book.day, path: hit.path, device: hit.device, ...source });
		const row = result.rows.get(key) ?? { views: 0, entries: 0 };
		row.views += hit.views;
		if (entry) row.entries++;
		result.rows.set(key, row);
		if (visitor !== null) {
			let counted = result.visitorsByRow.get(key);
			if (!counted?.has(visitor) && book.pairsAdded < AUDIENCE_BOUNDS.visitorRows) {
				if (!counted) result.visitorsByRow.set(key, (counted = new Set()));
				counted.add(visitor);
				book.pairsAdded++;
			}
		}
		if (visitor !== null && entry) {
			const first = landing?.first;
			const keepFirst = first && (first.referrerHost || first.utmSource);
			landing = { visit: source, first: keepFirst ? first : { ...source, path: hit.path } };
			result.landings.set(visitor, landing);
		}
	});
	return result;
}
