import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pages } from '$lib/pages/registry';
import { bundledFallback } from './fallbacks';

describe('bundled fallbacks', () => {
	it('holds, for every page with slots, the WebP file the registry names', () => {
		expect(pages.slotPages.length).toBeGreaterThan(0);
		for (const page of pages.slotPages) {
			const bytes = bundledFallback(page.path);
			expect(bytes.subarray(8, 12).toString('latin1'), page.path).toBe('WEBP');
			expect(bytes.equals(readFileSync(`src/lib/server/images/fallback/${page.slots.fallback}`))).toBe(true);
		}
	});
});
