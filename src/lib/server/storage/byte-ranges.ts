/**
 * Byte ranges (RFC 9110 §14) for the course's files: one range, a suffix range, `If-Range`, 416 when nothing of the
 * range exists. Several ranges in one request are answered with the whole file (the RFC allows it; browsers and
 * players ask for one). No SvelteKit import: plain rules, unit-tested (byte-ranges.test.ts).
 */
import type { ByteRange } from './types';

export type RangeDecision =
	{ kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * What to send for a `Range` header over an object of `size` bytes. A header that is not one valid range is ignored.
 * Positions are compared as big integers: a client may write any number of digits (RFC 9110 §14.1.1), and past 2^53
 * a Number is no longer the position it wrote.
 */
export function decideRange(header: string | null, size: number): RangeDecision {
	if (!header) return { kind: 'whole' };
	const match = SINGLE_RANGE.exec(header.replace(/\s+/g, ''));
	if (!match) return { kind: 'whole' };
	// Both groups always take part (`\d*`): an absent position is the empty string.
	const [, first = '', last = ''] = match;
	if (first === '' && last === '') return { kind: 'whole' };
	const total = BigInt(size);
	if (first === '') {
		// The last N bytes; a suffix longer than the object is the whole object, as a range (§14.1.3).
		const length = BigInt(last);
		if (length === 0n || size === 0) return { kind: 'unsatisfiable' };
		return {
			kind: 'partial',
			range: { start: Number(length >= total ? 0n : total - length), end: size - 1 }
		};
	}
	const start = BigInt(first);
	// A last position before the first makes the range invalid: the header is ignored (§14.1.1).
	if (last !== '' && BigInt(last) < start) return { kind: 'whole' };
	if (start >= total) return { kind: 'unsatisfiable' };
	const end = last === '' || BigInt(last) >= total ? size - 1 : Number(last);
	return { kind: 'partial', range: { start: Number(start), end } };
}

/**
 * Whether a range may be served under `If-Range`: its validator must be the object's strong ETag, or exactly its
 * last change's date (RFC 9110 §13.1.5: an exact match; an HTTP date has one-second precision). A later date is no
 * proof that the client's bytes are this version's.
 */
export function ifRangeHolds(header: string | null, etag: string, lastModified: Date): boolean {
	if (header === null) return true;
	const value = header.trim();
	if (value.startsWith('W/')) return false;
	if (value.startsWith('"')) return value === etag;
	const date = Date.parse(value);
	return Number.isFinite(date) && Math.floor(lastModified.getTime() / 1000) * 1000 === date;
}

/** `If-None-Match`: a list of ETags or `*`, compared weakly (RFC 9110 §13.1.2). */
export function noneMatch(header: string | null, etag: string): boolean {
	if (!header) return false;
	const bare = etag.replace(/^W\//, '');
	return header
		.split(',')
		.map((tag) => tag.trim().replace(/^W\//, ''))
		.some((tag) => tag === '*' || tag === bare);
}

/** `bytes start-end/size`. */
export const contentRange = ({ start, end }: ByteRange, size: number) => `bytes ${start}-${end}/${size}`;
