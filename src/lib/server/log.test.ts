import { afterEach, describe, expect, it, vi } from 'vitest';
import { log, REPEAT_WINDOW_MS } from './log';

/** The JSON lines the logger wrote to stderr during `run`. */
function linesOf(run: () => void): Record<string, unknown>[] {
	const written: string[] = [];
	const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void written.push(line));
	try {
		run();
	} finally {
		spy.mockRestore();
	}
	return written.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a warning that repeats', () => {
	afterEach(() => vi.restoreAllMocks());

	it('is written once per key a minute, the next line counting what was left out', () => {
		const start = 1_000_000_000;
		const key = `test-${Math.random()}`;
		const first = linesOf(() => {
			for (let i = 0; i < 500; i++)
				log.warnRepeating(key, 'site image fell back', { key: 'hero' }, start + i);
		});
		expect(first).toHaveLength(1);
		expect(first[0]).toMatchObject({ level: 'warn', message: 'site image fell back', key: 'hero' });
		expect(first[0]).not.toHaveProperty('suppressed');

		const later = linesOf(() => log.warnRepeating(key, 'site image fell back', {}, start + REPEAT_WINDOW_MS));
		expect(later).toHaveLength(1);
		expect(later[0]).toMatchObject({ suppressed: 499 });

		// A quiet minute after that: the next line has nothing to count.
		const quiet = linesOf(() =>
			log.warnRepeating(key, 'site image fell back', {}, start + 3 * REPEAT_WINDOW_MS)
		);
		expect(quiet[0]).not.toHaveProperty('suppressed');
	});

	it('keeps each key to itself, and redacts secrets like every line', () => {
		const now = 2_000_000_000;
		const lines = linesOf(() => {
			for (const slot of ['a', 'b', 'a', 'b', 'c'])
				log.warnRepeating(`test-slot-${slot}-${now}`, 'fell back', { slot, token: 'abc' }, now);
		});
		expect(lines.map((l) => l.slot)).toEqual(['a', 'b', 'c']);
		expect(lines.every((l) => l.token === '[redacted]')).toBe(true);
	});
});
