import { expect, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';

test.beforeEach(async ({ page }) => {
	await signInAsAdmin(page);
});

test('the admin sidebar collapses on a phone, opens on demand, and folds away after navigating', async ({
	page
}) => {
	await page.setViewportSize({ width: 360, height: 740 });
	await page.goto('/admin');
	const nav = page.getByRole('navigation', { name: 'Administration' });
	await expect(nav).toBeHidden();
	await page.getByText('Menu d’administration').click();
	await nav.getByRole('link', { name: 'Images' }).click();
	await expect(page).toHaveURL(/\/admin\/images$/);
	await expect(nav).toBeHidden();
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
	expect(overflow).toBeLessThanOrEqual(0);
});

test('a menu opened on a phone before the page’s script has run stays open once it has', async ({ page }) => {
	await page.setViewportSize({ width: 360, height: 740 });
	// The script held back, as on a slow connection, until the menu has been opened.
	let release!: () => void;
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/_app/immutable/**', async (route) => {
		await held;
		await route.continue();
	});
	await page.goto('/admin', { waitUntil: 'domcontentloaded' });
	const nav = page.getByRole('navigation', { name: 'Administration' });
	await page.getByText('Menu d’administration').click();
	await expect(nav).toBeVisible();
	release();
	await page.locator('html[data-hydrated]').waitFor();
	await expect(nav).toBeVisible();
	// Navigating folds it away, as always.
	await nav.getByRole('link', { name: 'Images' }).click();
	await expect(page).toHaveURL(/\/admin\/images$/);
	await expect(nav).toBeHidden();
});

test('the admin sidebar stays open on a desktop screen', async ({ page }) => {
	await page.setViewportSize({ width: 1280, height: 800 });
	await page.goto('/admin');
	const nav = page.getByRole('navigation', { name: 'Administration' });
	for (const name of ['Tableau de bord', 'Candidatures', 'Cours', 'Images', 'Demandes']) {
		await expect(nav.getByRole('link', { name })).toBeVisible();
	}
	await expect(page.getByRole('heading', { name: 'À faire' })).toBeVisible();
});

test('an admin page on a phone does not jump when its script arrives (the menu is served folded)', async ({
	page
}) => {
	await page.setViewportSize({ width: 360, height: 740 });
	await page.goto('/admin/questions');
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	// Every layout shift since the navigation started, as Lighthouse's CLS adds them (none from an input).
	const shifted = await page.evaluate(
		() =>
			new Promise<number>((resolve) => {
				let total = 0;
				new PerformanceObserver((list) => {
					for (const entry of list.getEntries() as (PerformanceEntry & {
						value: number;
						hadRecentInput: boolean;
					})[])
						if (!entry.hadRecentInput) total += entry.value;
				}).observe({ type: 'layout-shift', buffered: true });
				setTimeout(() => resolve(total), 500);
			})
	);
	expect(shifted).toBeLessThan(0.05);
});

test('without JavaScript the menu is the sidebar on a desktop screen and opens on demand on a phone', async ({
	browser
}) => {
	const context = await browser.newContext({
		javaScriptEnabled: false,
		viewport: { width: 1280, height: 800 }
	});
	const page = await context.newPage();
	await signInAsAdmin(page);
	await page.goto('/admin');
	const nav = page.getByRole('navigation', { name: 'Administration' });
	await expect(nav.getByRole('link', { name: 'Questions' })).toBeVisible();
	await page.setViewportSize({ width: 360, height: 740 });
	await expect(nav).toBeHidden();
	await page.getByText('Menu d’administration').click();
	await nav.getByRole('link', { name: 'Questions' }).click();
	await expect(page).toHaveURL(/\/admin\/questions$/);
	await context.close();
});
