import { describe, expect, it } from 'vitest';
import { dayRange } from './query';

describe('dayRange', () => {
	it('runs from the start of the first day to the start of the day after the last (UTC)', () => {
		expect(dayRange('2026-03-01', '2026-03-12')).toEqual({
			from: new Date('2026-03-01T00:00:00Z'),
			to: new Date('2026-03-13T00:00:00Z')
		});
		expect(dayRange('2026-12-31', '2026-12-31').to).toEqual(new Date('2027-01-01T00:00:00Z'));
	});

	it('leaves out a bound that was not given', () => {
		expect(dayRange(undefined, undefined)).toEqual({ from: undefined, to: undefined });
		expect(dayRange(undefined, '2026-02-28').to).toEqual(new Date('2026-03-01T00:00:00Z'));
	});
});
