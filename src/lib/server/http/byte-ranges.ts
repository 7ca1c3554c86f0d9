/**
 * Byte ranges (RFC 9110 §14) for the course's files: one range, a suffix range, `If-Range`, 416 when nothing of the
 * range exists. Several ranges in one request are answered with the whole file (the RFC allows it; browsers and
 * players ask for one). No SvelteKit import: plain rules, unit-tested (byte-ranges.test.ts).
 */
import type { ByteRange } from '../storage';

export type RangeDecision =
	{ kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/** What to send for a `Range` header over an object of `size` bytes. A header that is not one valid range is ignored. */
export function decideRange(header: string | null, size: number): RangeDecision {
	if (!header) return { kind: 'whole' };
	const match = SINGLE_RANGE.exec(header.replace(/\s+/g, ''));
	if (!match) return { kind: 'whole' };
	const [, first, last] = match as unknown as [string, string, string];
	if (first === '' && last === '') return { kind: 'whole' };
	if (first === '') {
		// The last N bytes.
		const length = Number(last);
		if (!Number.isSafeInteger(length) || length === 0 || size === 0) return { kind: 'unsatisfiable' };
		return { kind: 'partial', range: { start: Math.max(0, size - length), end: size - 1 } };
	}
	const start = Number(first);
	const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
	if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: 'whole' };
	if (last !== '' && Number(last) < start) return { kind: 'whole' };
	if (start >= size) return { kind: 'unsatisfiable' };
	return { kind: 'partial', range: { start, end } };
}

/**
 * Whether a range may be served under `If-Range`: its validator must be the object's strong ETag, or a date no
 * earlier than its last change (an HTTP date has one-second precision).
 */
export function ifRangeHolds(header: string | null, etag: string, lastModified: Date): boolean {
	if (header === null) return true;
	const value = header.trim();
	if (value.startsWith('W/')) return false;
	if (value.startsWith('"')) return value === etag;
	const date = Date.parse(value);
	return Number.isFinite(date) && Math.floor(lastModified.getTime() / 1000) * 1000 <= date;
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
