/** What every page must pass, for the e2e tests: axe's WCAG 2.1 A/AA rules, and no horizontal scroll. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The violations axe finds, one line each (empty when none). Needs JavaScript: axe runs in the page.
 * Legacy mode: axe runs in the page and reaches its frames by messages, instead of opening a blank page of its own to
 * merge their results — the same rules and frames, without a renderer started per check (0.6–1 s of CPU each on the
 * 2-core CI machines, for some 70 checks a run).
 */
export async function axeViolations(page: Page): Promise<string[]> {
	const result = await new AxeBuilder({ page }).withTags(WCAG).setLegacyMode(true).analyze();
	return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function expectNoAxeViolation(page: Page) {
	expect(await axeViolations(page)).toEqual([]);
}

export async function expectNoHorizontalScroll(page: Page) {
	expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}
