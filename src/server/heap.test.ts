import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const HEAP = pathToFileURL(path.join(import.meta.dirname, 'heap.ts')).href;
const MB = 1024 * 1024;

/**
 * A fresh Node process (V8's flags are the whole process's) that churns through short-lived objects while some
 * live across event-loop turns, as requests in flight do, then prints its young generation's size.
 */
function youngGenerationAfterChurn(hold: number | null): number {
	const script = `
		import { boundHeapGrowth, youngGenerationSize } from ${JSON.stringify(HEAP)};
		${hold === null ? '' : `boundHeapGrowth(${hold});`}
		let inFlight = [];
		for (let turn = 0; turn < 60; turn++) {
			for (let i = 0; i < 50_000; i++) {
				const o = { i, text: 'x' + i };
				if (i % 20 === 0) inFlight.push(o);
			}
			if (inFlight.length > 20_000) inFlight = [];
			await new Promise((resolve) => setImmediate(resolve));
		}
		console.log(youngGenerationSize());`;
	const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
	return Number(out.trim());
}

describe('boundHeapGrowth', () => {
	it('lets the young generation grow to the size given, then stops it within one more growth', () => {
		const free = youngGenerationAfterChurn(null);
		const held = youngGenerationAfterChurn(4 * MB);
		expect(free).toBeGreaterThan(8 * MB);
		expect(held).toBeGreaterThanOrEqual(4 * MB);
		expect(held).toBeLessThanOrEqual(8 * MB);
	});
});
