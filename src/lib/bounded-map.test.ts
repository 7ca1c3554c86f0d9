import { describe, expect, it } from 'vitest';
import { setBounded } from './bounded-map';

describe('setBounded', () => {
	it('keeps at most `max` entries, the oldest going first', () => {
		const map = new Map<string, number>();
		for (let i = 0; i < 5; i++) setBounded(map, `k${i}`, i, 3);
		expect([...map]).toEqual([
			['k2', 2],
			['k3', 3],
			['k4', 4]
		]);
	});

	it('makes a key set again the newest, without dropping another for it', () => {
		const map = new Map<string, number>();
		for (let i = 0; i < 3; i++) setBounded(map, `k${i}`, i, 3);
		setBounded(map, 'k0', 10, 3);
		expect([...map.keys()]).toEqual(['k1', 'k2', 'k0']);
		setBounded(map, 'k3', 3, 3);
		expect([...map]).toEqual([
			['k2', 2],
			['k0', 10],
			['k3', 3]
		]);
	});
});
