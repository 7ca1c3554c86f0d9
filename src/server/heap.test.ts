import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_FLAG } from './heap';

const HEAP = pathToFileURL(path.join(import.meta.dirname, 'heap.ts')).href;
const MB = 1024 * 1024;

/**
 * A fresh Node process (V8's flags are the whole process's), started as `node build/server.js` is, without flags:
 * it takes its process settings, then churns through short-lived objects while some live on, in one synchronous
 * stretch as the start-up is (opening and migrating the embedded database), then prints its young generation's size.
 */
function youngGenerationAfterChurn(settings: boolean): number {
	const script = `
		import { startWithProcessSettings, youngGenerationSize } from ${JSON.stringify(HEAP)};
		${settings ? 'startWithProcessSettings();' : ''}
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

describe('startWithProcessSettings', () => {
	// Two semi-spaces of the flag's size.
	const bound = 2 * Number(/=(\d+)$/.exec(YOUNG_GENERATION_FLAG)![1]) * MB;

	it('bounds the young generation, even through a start that never yields to the event loop', () => {
		const free = youngGenerationAfterChurn(false);
		const bounded = youngGenerationAfterChurn(true);
		expect(bound).toBe(32 * MB);
		expect(free).toBeGreaterThan(bound);
		expect(bounded).toBeGreaterThan(0);
		expect(bounded).toBeLessThanOrEqual(bound);
	});
});
