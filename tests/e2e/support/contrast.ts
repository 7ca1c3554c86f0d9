import type { Page } from '@playwright/test';

/**
 * The contrast ratio (WCAG 2.x) of every visible button's text against the ground it is drawn on: what lies under
 * the button's centre — the first opaque background colour there. A button over a photo (an image, a background
 * image or gradient) has no single ground and is left out, as axe leaves it. axe reports a 1:1 ratio (text drawn
 * in its ground's colour) as « incomplete », not as a violation: this measures it.
 */
export function buttonContrasts(page: Page): Promise<{ label: string; ratio: number }[]> {
	return page.locator('a.button, button').evaluateAll((elements) => {
		const rgba = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
		const luminance = ([r, g, b]: number[]) =>
			[r!, g!, b!]
				.map((c) => c / 255)
				.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
				.reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
		const opaque = (colour: number[]) => colour.length === 3 || colour[3] === 1;
		/** The colour under the element's centre, or null over a photo. */
		const groundOf = (element: Element): number[] | null => {
			const own = rgba(getComputedStyle(element).backgroundColor);
			if (opaque(own)) return own;
			element.scrollIntoView({ block: 'center' });
			const box = element.getBoundingClientRect();
			const under = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2);
			for (const at of under) {
				if (at === element || element.contains(at)) continue;
				const style = getComputedStyle(at);
				if (at instanceof HTMLImageElement || at instanceof SVGElement || style.backgroundImage !== 'none')
					return null;
				const colour = rgba(style.backgroundColor);
				if (opaque(colour)) return colour;
			}
			return [255, 255, 255];
		};
		return elements
			.filter((element) => {
				const box = element.getBoundingClientRect();
				return box.width > 0 && box.height > 0 && element.textContent?.trim();
			})
			.flatMap((element) => {
				const under = groundOf(element);
				if (!under) return [];
				const text = luminance(rgba(getComputedStyle(element).color));
				const ground = luminance(under);
				return [
					{
						label: element.textContent!.trim(),
						ratio: (Math.max(text, ground) + 0.05) / (Math.min(text, ground) + 0.05)
					}
				];
			});
	});
}
