import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow, log, REPEAT_WINDOW_MS } from './log';

/**
 * The JSON lines the logger wrote during `run`: to stderr (warnings and errors), or with `console.log` to stdout
 * (info and debug, before the server batches its output).
 */
function linesOf(run: () => void, to: 'error' | 'log' = 'error'): Record<string, unknown>[] {
	const written: string[] = [];
	const spy = vi.spyOn(console, to).mockImplementation((line: string) => void written.push(line));
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

describe('the production server’s output lines', () => {
	it('are written once per turn of the event loop, in order, and the last ones on exit', () => {
		// A process of its own: batching is process-wide, and this test runner reads lines as they come.
		const script = `
			const { batchOutputLines, log } = await import(${JSON.stringify(new URL('./log.ts', import.meta.url).href)});
			const writes = [];
			const write = process.stdout.write.bind(process.stdout);
			process.stdout.write = (text) => (writes.push(text), true);
			batchOutputLines();
			log.info('un', { n: 1 });
			log.info('deux', { password: 'jamais écrit' });
			setImmediate(() => {
				log.info('trois');
				process.on('exit', () => write(JSON.stringify(writes)));
				process.exit(0);
			});`;
		const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
			encoding: 'utf8'
		});
		const writes = JSON.parse(output) as string[];
		// Two lines in one turn: one write; the third, written by the exit, in a second one.
		expect(writes).toHaveLength(2);
		const lines = writes
			.join('')
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(lines.map((line) => line.message)).toEqual(['un', 'deux', 'trois']);
		expect(lines[1]).toMatchObject({ password: '[redacted]' });
	});
});

describe('the time on each line', () => {
	it('is what toISOString writes, at every millisecond, across seconds, and when the clock goes back', () => {
		const start = Date.UTC(2026, 11, 4, 23, 59, 58, 990);
		const times = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1009, 2011, 2999, 3000, 5].map(
			(ms) => start + ms
		);
		for (const time of [...times, start - 86_400_000, start, start])
			expect(isoNow(time)).toBe(new Date(time).toISOString());
	});
});

describe('the access log’s line', () => {
	afterEach(() => vi.restoreAllMocks());

	it('is the JSON a generic line with the same fields would be, whatever a client put in the method', () => {
		const fields = { method: 'G"ET\n\u0000', route: '/devis', status: 303, ms: 12.5, id: 'abcdefgh-1' };
		const [fast, generic, aborted] = linesOf(() => {
			log.request('info', { ...fields, aborted: false });
			log.info('request', fields);
			log.request('info', { ...fields, aborted: true });
		}, 'log');
		const withoutTime = ({ time, ...rest }: Record<string, unknown>) => {
			expect(Number.isNaN(Date.parse(String(time)))).toBe(false);
			return rest;
		};
		expect(withoutTime(fast!)).toEqual(withoutTime(generic!));
		expect(Object.keys(fast!)).toEqual(Object.keys(generic!));
		expect(withoutTime(aborted!)).toEqual({ ...withoutTime(generic!), aborted: true });
	});
});
