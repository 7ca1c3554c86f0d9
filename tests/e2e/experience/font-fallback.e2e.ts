/**
 * The titles do not move when the brand's fonts arrive (issue « Experience, part 2 », point 6: CLS 0 on /macon):
 * laid out first in the local fallback faces sized to Fraunces and Inter (src/lib/styles/tokens.css), each heading
 * keeps its height — its number of lines — once the web fonts are in. Measured with the fonts withheld, then given.
 */
import { expect, test } from '@playwright/test';
import { fullBrowser } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

// Text laid out by the browser visitors have: the headless shell's fonts break a heading one line differently.
test.use({ launchOptions: fullBrowser });

let server: RunningServer;
test.beforeAll(async () => {
	server = await startServer({ DATABASE_URL: '' });
});
test.afterAll(async () => {
	expect(await server.stop()).toBe(0);
});

const heights = (page: import('@playwright/test').Page) =>
	page.evaluate(() =>
		[...document.querySelectorAll('main h1, main h2, main h3')].map(
			(e) => `${e.textContent?.trim().slice(0, 40)}: ${Math.round(e.getBoundingClientRect().height)} px`
		)
	);

for (const width of [360, 412])
	test(`at ${width} px, no title of the landing pages moves when the fonts arrive`, async ({ page }) => {
		await page.setViewportSize({ width, height: 800 });
		for (const path of ['/', '/macon', '/paysagiste', '/candidature']) {
			await page.route('**/*.woff2', (route) => route.abort());
			await page.goto(server.url + path);
			const fallback = await heights(page);
			await page.unroute('**/*.woff2');
			await page.goto(server.url + path);
			await page.evaluate(() => document.fonts.ready);
			expect(await page.evaluate(() => document.fonts.check('700 20px "Fraunces Variable"')), path).toBe(
				true
			);
			expect(await heights(page), path).toEqual(fallback);
		}
	});
