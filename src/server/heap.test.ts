import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALLOCATOR_SETTINGS, COMMAND_V8_FLAGS, V8_FLAGS } from './heap';

const HEAP = pathToFileURL(path.join(import.meta.dirname, 'heap.ts')).href;
const MB = 1024 * 1024;

/**
 * A fresh Node process (V8's flags are the whole process's), started as `node build/server.js` is, without flags:
 * it takes the given start-up flags (none: as V8 leaves it), then churns through short-lived objects while some live
 * on, in one synchronous stretch as the start-up is (opening and migrating the embedded database), then prints its
 * young generation's size.
 */
function youngGenerationAfterChurn(flags: readonly string[] | null): number {
	const script = `
		import { startWithProcessSettings, youngGenerationSize } from ${JSON.stringify(HEAP)};
		${flags ? `startWithProcessSettings(${JSON.stringify(flags)});` : ''}
		let inFlight = [];
		for (let turn = 0; turn < 60; turn++) {
			for (let i = 0; i < 50_000; i++) {
				const o = { i, text: 'x' + i };
				if (i % 20 === 0) inFlight.push(o);
			}
			if (inFlight.length > 20_000) inFlight = [];
		}
		console.log(youngGenerationSize());`;
	const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
	return Number(out.trim());
}

/** Two semi-spaces of the flag's size. */
const boundOf = (flags: readonly string[]) =>
	2 *
	Number(
		/^--max-semi-space-size=(\d+)$/.exec(flags.find((f) => f.startsWith('--max-semi-space-size='))!)![1]
	) *
	MB;

describe('startWithProcessSettings', () => {
	it('bounds the young generation by its flag, even through a start that never yields to the event loop', () => {
		// Left alone it grows past 8 MB on every runtime (64 MB on Node.js 24; Node.js 26's V8 stops at 32 MB by itself,
		// the server's own bound): a bound of 8 MB shows the restart's flag taking effect on both.
		const free = youngGenerationAfterChurn(null);
		const small = ['--liftoff-only', '--max-semi-space-size=4'];
		const bounded = youngGenerationAfterChurn(small);
		expect(free).toBeGreaterThan(boundOf(small));
		expect(bounded).toBeGreaterThan(0);
		expect(bounded).toBeLessThanOrEqual(boundOf(small));
	});

	it('gives the server 32 MB and the commands 16 MB', () => {
		expect(boundOf(V8_FLAGS)).toBe(32 * MB);
		expect(boundOf(COMMAND_V8_FLAGS)).toBe(16 * MB);
		expect(youngGenerationAfterChurn(COMMAND_V8_FLAGS)).toBeLessThanOrEqual(16 * MB);
		expect(youngGenerationAfterChurn(V8_FLAGS)).toBeLessThanOrEqual(32 * MB);
	});
});

describe('the allocator’s settings', () => {
	/** A fresh process started with `env` (and none of the settings but those): what it runs with after its start. */
	function settingsAfterStart(env: Record<string, string>): Record<string, string | undefined> {
		const script = `
			import { startWithProcessSettings } from ${JSON.stringify(HEAP)};
			startWithProcessSettings([]);
			console.log(JSON.stringify({ threshold: process.env.MALLOC_MMAP_THRESHOLD_, arenas: process.env.MALLOC_ARENA_MAX }));`;
		// `env -u`: none of the settings this test process may have been given reaches the new one.
		const unset = Object.keys(ALLOCATOR_SETTINGS).flatMap((name) => ['-u', name]);
		const given = Object.entries(env).map(([name, value]) => `${name}=${value}`);
		const out = execFileSync(
			'env',
			[...unset, ...given, process.execPath, '--input-type=module', '-e', script],
			{ encoding: 'utf8' }
		);
		return JSON.parse(out.trim()) as Record<string, string | undefined>;
	}

	it('are added where missing, and a value given is kept (a unit written before the arenas were set)', () => {
		expect(settingsAfterStart({})).toMatchObject({
			threshold: ALLOCATOR_SETTINGS.MALLOC_MMAP_THRESHOLD_,
			arenas: ALLOCATOR_SETTINGS.MALLOC_ARENA_MAX
		});
		expect(settingsAfterStart({ MALLOC_MMAP_THRESHOLD_: '65536' })).toMatchObject({
			threshold: '65536',
			arenas: ALLOCATOR_SETTINGS.MALLOC_ARENA_MAX
		});
		expect(settingsAfterStart({ MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '4' })).toMatchObject({
			threshold: '131072',
			arenas: '4'
		});
	});
});
