/**
 * The process settings V8 and glibc read only when a process starts (src/server/heap.ts says why each is set, and
 * why at that value). glibc's mmap threshold (src/server/heap.ts says why it is fixed, and why at that value) is written in four places:
 * the server's own restart, `npm start`'s (plain JavaScript, which cannot import the TypeScript), the image and the
 * systemd unit. A value changed in one and not the others would run the site at two settings depending on how it
 * was started — the one a test measured, and another.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALLOCATOR_SETTINGS, V8_FLAGS } from '../../src/server/heap';

const threshold = ALLOCATOR_SETTINGS.MALLOC_MMAP_THRESHOLD_;
const settingsIn = (file: string) =>
	[...readFileSync(file, 'utf8').matchAll(/MALLOC_MMAP_THRESHOLD_(?:=|: ')(\d+)/g)].map((match) => match[1]);

describe('the allocator setting', () => {
	it.each(['scripts/start.mjs', 'docker/Dockerfile', 'docs/atelier.service'])(
		'%s sets the server’s own value',
		(file) => {
			const found = settingsIn(file);
			expect(found.length).toBeGreaterThan(0);
			expect(new Set(found)).toEqual(new Set([threshold]));
		}
	);
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
