import { describe, expect, it } from 'vitest';
import { decideRange, ifRangeHolds, noneMatch } from './byte-ranges';

describe('Range', () => {
	const size = 1000;
	it('a range, an open range, a suffix, clamped to the object', () => {
		expect(decideRange('bytes=0-99', size)).toEqual({ kind: 'partial', range: { start: 0, end: 99 } });
		expect(decideRange('bytes=500-', size)).toEqual({ kind: 'partial', range: { start: 500, end: 999 } });
		expect(decideRange('bytes=-100', size)).toEqual({ kind: 'partial', range: { start: 900, end: 999 } });
		expect(decideRange('bytes=-5000', size)).toEqual({ kind: 'partial', range: { start: 0, end: 999 } });
		expect(decideRange('bytes=990-5000', size)).toEqual({ kind: 'partial', range: { start: 990, end: 999 } });
	});

	it('numbers of any length (RFC 9110 §14.1.3): a 20-digit suffix is the whole object as a 206, a first byte past 2^53 is a 416', () => {
		const whole = { kind: 'partial', range: { start: 0, end: 999 } };
		expect(decideRange('bytes=-99999999999999999999', size)).toEqual(whole);
		expect(decideRange('bytes=0-99999999999999999999', size)).toEqual(whole);
		expect(decideRange('bytes=9007199254740993-', size)).toEqual({ kind: 'unsatisfiable' });
		expect(decideRange('bytes=99999999999999999999-99999999999999999999', size)).toEqual({
			kind: 'unsatisfiable'
		});
		// Still a range whose last is before its first: ignored, whatever the digits.
		expect(decideRange('bytes=99999999999999999999-5', size)).toEqual({ kind: 'whole' });
		expect(decideRange('bytes=-00000000000000000000', size)).toEqual({ kind: 'unsatisfiable' });
	});

	it('nothing of it exists: unsatisfiable', () => {
		expect(decideRange('bytes=1000-', size)).toEqual({ kind: 'unsatisfiable' });
		expect(decideRange('bytes=2000-3000', size)).toEqual({ kind: 'unsatisfiable' });
		expect(decideRange('bytes=-0', size)).toEqual({ kind: 'unsatisfiable' });
		expect(decideRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
	});

	it('what is not one valid range is ignored: the whole object', () => {
		for (const header of [
			null,
			'',
			'bytes=',
			'bytes=-',
			'items=0-1',
			'bytes=5-1',
			'bytes=0-1,5-9',
			'bytes=a-b'
		])
			expect(decideRange(header, size)).toEqual({ kind: 'whole' });
	});
});

describe('If-Range and If-None-Match', () => {
	const etag = '"abc"';
	const changed = new Date('2026-11-27T10:00:00.500Z');
	it('If-Range holds for the same strong ETag, or exactly the change’s date (RFC 9110 §13.1.5)', () => {
		expect(ifRangeHolds(null, etag, changed)).toBe(true);
		expect(ifRangeHolds('"abc"', etag, changed)).toBe(true);
		expect(ifRangeHolds('"old"', etag, changed)).toBe(false);
		expect(ifRangeHolds('W/"abc"', etag, changed)).toBe(false);
		expect(ifRangeHolds(changed.toUTCString(), etag, changed)).toBe(true);
		expect(ifRangeHolds(new Date('2026-11-27T09:00:00Z').toUTCString(), etag, changed)).toBe(false);
		// A later date is no match: the client's bytes may be of a version in between.
		expect(ifRangeHolds(new Date('2026-11-27T10:00:01Z').toUTCString(), etag, changed)).toBe(false);
		expect(ifRangeHolds(new Date('2027-01-01T00:00:00Z').toUTCString(), etag, changed)).toBe(false);
	});

	it('If-None-Match matches weakly, in a list, or with *', () => {
		expect(noneMatch('"abc"', etag)).toBe(true);
		expect(noneMatch('W/"abc"', etag)).toBe(true);
		expect(noneMatch('"x", "abc"', etag)).toBe(true);
		expect(noneMatch('*', etag)).toBe(true);
		expect(noneMatch('"x"', etag)).toBe(false);
		expect(noneMatch(null, etag)).toBe(false);
	});
});
