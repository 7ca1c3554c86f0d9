/**
 * What the slots hold, read by both the admin's side (service.ts) and the public proxy (proxy.ts): the stored
 * values, cached briefly, and how long a signed URL to a stored image lasts.
 */
import { createHash } from 'node:crypto';
import type { DbOrTx } from '../db';
import * as pageCache from '../pages/cache';
import * as queries from './queries';

/** A signed storage URL's lifetime: the proxy's upstream fetch and the admin's previews. */
export const SIGNED_URL_SECONDS = 60 * 60;

export const storedValues = (db: DbOrTx): Promise<queries.StoredValues> => queries.selectSlotValues(db);

/**
 * The proxy reads a slot's value on every request; values change a few times a month. One query loads them
 * all, shared by concurrent requests and kept briefly; any purge (a change here or, through the page cache's
 * notifications, on another instance) drops it at once.
 */
const VALUES_TTL_MS = 2_000;
let cachedValues: {
	at: number;
	values: Promise<queries.StoredValues>;
	/** The values once the query has answered: what `storedValueNow` reads. */
	settled?: queries.StoredValues;
} | null = null;
pageCache.onPurge(() => {
	cachedValues = null;
});

export async function storedValue(db: DbOrTx, key: string): Promise<string | null> {
	if (!cachedValues || Date.now() - cachedValues.at > VALUES_TTL_MS) {
		const values = storedValues(db);
		const cached: NonNullable<typeof cachedValues> = { at: Date.now(), values };
		cachedValues = cached;
		values.then(
			(settled) => void (cached.settled = settled),
			() => {
				if (cachedValues === cached) cachedValues = null;
			}
		);
	}
	return (await cachedValues.values).get(key)?.url ?? null;
}

/**
 * `storedValue` without waiting: the slot's value while the one query's answer is fresh; undefined when it must be
 * asked (`storedValue`). The image proxy answers a known photo without a promise (entry-answer.ts).
 */
export function storedValueNow(key: string): string | null | undefined {
	if (!cachedValues?.settled || Date.now() - cachedValues.at > VALUES_TTL_MS) return undefined;
	return cachedValues.settled.get(key)?.url ?? null;
}

/**
 * The `?v=` of a slot's image URL: a digest of its value. A URL whose `v` is the current value's names bytes that
 * never change (cached for a year, immutable); the page carries a new `v` as soon as the value changes.
 */
export const versionOf = (value: string): string =>
	createHash('sha256').update(value).digest('base64url').slice(0, 10);

/** The width a stock host's URL asks for (`w=1600`), or null: what that photo is offered at. */
export function widthInUrl(value: string): number | null {
	try {
		const w = Number(new URL(value).searchParams.get('w'));
		return Number.isInteger(w) && w > 0 ? w : null;
	} catch {
		return null;
	}
}
