import { describe, expect, it, vi } from 'vitest';
import { processWide } from './process-wide';

describe('processWide', () => {
	it('is one value for every copy of a module that names it, apart from other names', async () => {
		const first = processWide<number[]>('test-slot');
		first.set([1]);
		// What a second bundle does: its own copy of the module, the same name.
		vi.resetModules();
		const again = await import('./process-wide');
		expect(again.processWide<number[]>('test-slot').get()).toEqual([1]);
		expect(again.processWide<number[]>('other-test-slot').get()).toBeUndefined();
		// Set by the second copy after the first has read: the first sees it too.
		again.processWide<number[]>('test-slot').set([2]);
		expect(first.get()).toEqual([2]);
	});

	it('ensure makes the value once, and the second caller finds it made', () => {
		const make = vi.fn(() => new Set<string>());
		const one = processWide<Set<string>>('test-ensure').ensure(make);
		const two = processWide<Set<string>>('test-ensure').ensure(make);
		expect(two).toBe(one);
		expect(make).toHaveBeenCalledTimes(1);
	});
});
