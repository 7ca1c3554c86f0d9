/** What every page must pass, for the e2e tests: axe's WCAG 2.1 A/AA rules, and no horizontal scroll. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The violations axe finds, one line each (empty when none). Needs JavaScript: axe runs in the page. */
export async function axeViolations(page: Page): Promise<string[]> {
	const result = await new AxeBuilder({ page }).withTags(WCAG).analyze();
	return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function expectNoAxeViolation(page: Page) {
	expect(await axeViolations(page)).toEqual([]);
}

export async function expectNoHorizontalScroll(page: Page) {
	expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}
