/**
 * A page as the test left it, full length, in the test's output folder; and, when SCREENSHOTS_DIR is set (as for
 * the pictures in docs/screenshots), there too under the same name.
 */
import type { Page } from '@playwright/test';
import { test } from './fixtures';

export async function keepScreenshot(page: Page, name: string): Promise<void> {
	await page.screenshot({ path: test.info().outputPath(name), fullPage: true });
	if (process.env.SCREENSHOTS_DIR)
		await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/${name}`, fullPage: true });
}
