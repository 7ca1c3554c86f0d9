import { describe, expect, it } from 'vitest';
import { fromParisWallTime, parisWallTime } from './paris-time';

describe('Paris wall-clock times', () => {
	it('reads a wall time in winter and in summer with the offset of that day', () => {
		expect(fromParisWallTime('2026-12-24T09:00')).toBe('2026-12-24T09:00:00+01:00');
		expect(fromParisWallTime('2026-07-14T22:30')).toBe('2026-07-14T22:30:00+02:00');
		expect(new Date(fromParisWallTime('2026-12-24T09:00')!).toISOString()).toBe('2026-12-24T08:00:00.000Z');
		expect(new Date(fromParisWallTime('2026-07-14T22:30')!).toISOString()).toBe('2026-07-14T20:30:00.000Z');
	});

	it('reads the hours around the changes of time', () => {
		// 29 March 2026: 2:00 → 3:00. 1:59 is winter time, 3:00 summer time, 2:30 does not exist (the hour after).
		expect(new Date(fromParisWallTime('2026-03-29T01:59')!).toISOString()).toBe('2026-03-29T00:59:00.000Z');
		expect(new Date(fromParisWallTime('2026-03-29T03:00')!).toISOString()).toBe('2026-03-29T01:00:00.000Z');
		expect(new Date(fromParisWallTime('2026-03-29T02:30')!).toISOString()).toBe('2026-03-29T01:30:00.000Z');
		// 25 October 2026: 3:00 → 2:00. 2:30 happens twice: the first.
		expect(new Date(fromParisWallTime('2026-10-25T02:30')!).toISOString()).toBe('2026-10-25T00:30:00.000Z');
		expect(new Date(fromParisWallTime('2026-10-25T04:00')!).toISOString()).toBe('2026-10-25T03:00:00.000Z');
	});

	it('gives back the wall time of an instant, and refuses what is not one', () => {
		expect(parisWallTime(new Date('2026-12-24T08:00:00Z'))).toBe('2026-12-24T09:00');
		expect(parisWallTime(new Date('2026-07-14T20:30:00Z'))).toBe('2026-07-14T22:30');
		for (const bad of [
			'',
			'2026-12-24',
			'2026-12-24 09:00',
			'2026-02-30T09:00',
			'2026-12-24T09:00Z',
			'demain'
		])
			expect(fromParisWallTime(bad), bad).toBeNull();
	});
});
