import { describe, expect, it } from 'vitest';
import { addWorkingDays } from './working-days';

describe('working days', () => {
	it('skips the weekend, in France’s time zone', () => {
		// Friday 5 June 2026, 18:00 in Paris.
		const friday = new Date('2026-06-05T16:00:00Z');
		expect(addWorkingDays(friday, 1).toISOString()).toBe('2026-06-08T16:00:00.000Z');
		expect(addWorkingDays(friday, 2).toISOString()).toBe('2026-06-09T16:00:00.000Z');
		const tuesday = new Date('2026-06-02T08:00:00Z');
		expect(addWorkingDays(tuesday, 2).toISOString()).toBe('2026-06-04T08:00:00.000Z');
		expect(addWorkingDays(tuesday, 5).toISOString()).toBe('2026-06-09T08:00:00.000Z');
		// Saturday 23:30 in Paris is Saturday, whatever UTC says (22:30Z): the next working day is Monday.
		expect(addWorkingDays(new Date('2026-06-06T21:30:00Z'), 1).toISOString()).toBe(
			'2026-06-08T21:30:00.000Z'
		);
	});
});
