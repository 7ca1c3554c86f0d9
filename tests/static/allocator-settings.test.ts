/**
 * The process settings V8 and glibc read only when a process starts (src/server/heap.ts says why each is set, and
 * why at that value). glibc's settings (the mmap threshold, the arenas) are written in four places: the server's
 * own restart, `npm start`'s (plain JavaScript, which cannot import the TypeScript), the image and the systemd
 * unit. A value changed in one and not the others would run the site at two settings depending on how it was
 * started — the one a test measured, and another.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALLOCATOR_SETTINGS, V8_FLAGS } from '../../src/server/heap';

const valuesIn = (file: string, name: string) =>
	[...readFileSync(file, 'utf8').matchAll(new RegExp(`${name}(?:=|: ')(\\d+)`, 'g'))].map((match) => match[1]);

describe('the allocator’s settings', () => {
	const cases = ['scripts/start.mjs', 'docker/Dockerfile', 'docs/atelier.service'].flatMap((file) =>
		Object.entries(ALLOCATOR_SETTINGS).map(([name, value]) => [file, name, value] as const)
	);
	it.each(cases)('%s sets %s to the server’s own value', (file, name, value) => {
		const found = valuesIn(file, name);
		expect(found.length).toBeGreaterThan(0);
		expect(new Set(found)).toEqual(new Set([value]));
	});
});

describe('V8’s start-up flags', () => {
	// `npm start` restarts itself with them, and its supervisor hands its own flags to the server: the server restarts
	// once more where a flag is missing, and would run with both lists if they differed.
	it('scripts/start.mjs restarts with the server’s own list', () => {
		const declared = /const V8_FLAGS = \[([^\]]*)\]/.exec(readFileSync('scripts/start.mjs', 'utf8'));
		expect(declared).not.toBeNull();
		const flags = [...declared![1]!.matchAll(/'([^']+)'/g)].map((match) => match[1]);
		expect(flags).toEqual([...V8_FLAGS]);
	});
});
