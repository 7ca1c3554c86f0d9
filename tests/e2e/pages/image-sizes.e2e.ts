/**
 * Each photo's `sizes` says the width it is drawn at (issue "Experience, part 3", point 5): the browser picks its
 * file from that figure, so a wrong one sends a phone a desktop's photo. Measured in the page: the length the
 * matching `sizes` entry names, laid out, against the image's own box, at a phone's, a tablet's and desktops'
 * widths — across each layout's breakpoints.
 */
import { expect, test } from '../support/fixtures';

for (const path of ['/macon', '/paysagiste', '/'])
	test(`${path}: every image's sizes is the width it is drawn at`, async ({ page }) => {
		for (const width of [360, 412, 600, 800, 900, 1100, 1280, 1500]) {
			await page.setViewportSize({ width, height: 900 });
			await page.goto(path);
			const mismatches = await page.evaluate(() => {
				const probe = document.createElement('div');
				probe.style.cssText = 'position:absolute;visibility:hidden;height:1px';
				document.body.append(probe);
				const lengthOf = (css: string) => {
					probe.style.width = css;
					return probe.getBoundingClientRect().width;
				};
				const found: string[] = [];
				for (const img of document.querySelectorAll<HTMLImageElement>('img[sizes]')) {
					const drawn = img.getBoundingClientRect().width;
					if (drawn === 0) continue;
					const entries = img.sizes.split(/,(?![^(]*\))/).map((entry) => entry.trim());
					let length = entries.at(-1)!;
					for (const entry of entries) {
						const match = /^(\([^)]*\))\s+(.+)$/.exec(entry);
						if (match && matchMedia(match[1]!).matches) {
							length = match[2]!;
							break;
						}
					}
					const said = lengthOf(length);
					if (Math.abs(said - drawn) > 2) found.push(`${img.alt || img.src}: sizes ${said}, drawn ${drawn}`);
				}
				probe.remove();
				return found;
			});
			expect(mismatches, `${path} at ${width} px`).toEqual([]);
		}
	});
