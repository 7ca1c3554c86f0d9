/**
 * What the marketing pages' photos are drawn at (marketing.css), as `sizes`: the browser picks its file from it,
 * so a phone fetches the width it draws, not the screen's. A section's content is min(100vw − 2rem, 72rem) wide —
 * 72rem from a 74rem screen. Checked against the drawn boxes at eight widths by tests/e2e/pages/image-sizes.e2e.ts.
 */

/** `.gallery`: 16rem tracks, 0.75rem gaps — two columns from a 34.75rem screen, three from 51.5rem. */
export const GALLERY_SIZES =
	'(min-width: 74rem) 23.5rem, (min-width: 51.5rem) calc((100vw - 3.5rem) / 3), ' +
	'(min-width: 34.75rem) calc((100vw - 2.75rem) / 2), calc(100vw - 2rem)';

/** `.cards`: 17rem tracks, 1.5rem gaps — two columns from a 37.5rem screen, three from 56rem. */
export const CARD_SIZES =
	'(min-width: 74rem) 23rem, (min-width: 56rem) calc((100vw - 5rem) / 3), ' +
	'(min-width: 37.5rem) calc((100vw - 3.5rem) / 2), calc(100vw - 2rem)';

/** `.split .media`: half the content less the 2rem gap, from a 52rem screen. */
export const HALF_SIZES =
	'(min-width: 74rem) 35rem, (min-width: 52rem) calc((100vw - 4rem) / 2), calc(100vw - 2rem)';
