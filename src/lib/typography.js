/**
 * French typography for every string a visitor reads (issue "Experience", point 8), in one pure function:
 *
 * - a narrow no-break space (U+202F) before `; ! ? :` and inside `« »`, so that a sign never starts a line;
 * - no-break spaces (U+00A0) between the groups of a number — phone, SIREN/SIRET, VAT, "1 900 €" — and between
 *   a number and its unit ("48 h", "30 km", "50 %"), so that none of them breaks across lines;
 * - elisions ("de Annecy" → "d’Annecy", "que il" → "qu’il") and the typographic apostrophe ("l'équipe" →
 *   "l’équipe"); "..." → "…".
 *
 * Idempotent, and safe on what is not prose: a URL's `https://`, a time's `14:30`, `?v=1`, HTML entities and
 * e-mail addresses are left as they are. Applied at build time to the text and the `{expressions}` of the
 * public pages' templates (scripts/svelte-typography.js), and to Markdown content (src/lib/markdown.ts).
 * Client-safe, with no package dependency; plain JavaScript (JSDoc-typed) because svelte.config.js imports it too.
 */

import { setBounded } from './bounded-map.js';

export const NNBSP = '\u202F';
export const NBSP = '\u00A0';

const SPACES = '[ \\u00A0\\u202F]';
/** After the sign: the end, a space, closing punctuation, a tag — not a letter, digit or slash (URLs, times). */
const AFTER_SIGN = '(?=$|[\\s»)\\]"”’.,…<*_])';

/** @type {[RegExp, string | ((match: string, word: string) => string)][]} */
const rules = [
	// The typographic apostrophe between letters.
	[/(?<=\p{L})'(?=\p{L})/gu, '’'],
	[/\.\.\./g, '…'],
	// Elisions before a vowel (h and y left alone: "le héros", "le yaourt").
	[
		/(?<![\p{L}\p{N}’'-])(de|que|jusque|lorsque|puisque|le|la|je|ne|se|me|te)[ \u00A0](?=[aeiouâàéèêëîïôûù])/giu,
		(_, word) => `${word.slice(0, -1)}’`
	],
	[/(?<![\p{L}\p{N}’'-])(s)i[ \u00A0](?=ils?\b)/giu, '$1’'],
	// Narrow no-break space before ; ! ? : (an entity's own ";" excepted), after « and before ».
	[
		new RegExp(`(?<=[^\\s\\u00A0\\u202F&]|^)(?<!&#?\\w+)${SPACES}*([;!?:]+)${AFTER_SIGN}`, 'gu'),
		`${NNBSP}$1`
	],
	[new RegExp(`«${SPACES}*`, 'gu'), `«${NNBSP}`],
	[new RegExp(`${SPACES}*»`, 'gu'), `${NNBSP}»`],
	// Numbers hold together: groups of digits, and a number with its unit.
	[/(?<=\d) (?=\d)/gu, NBSP],
	[
		/(?<=\d) (?=(?:€|%|‰|°|m²|m³|h\b|min\b|km\b|m\b|cm\b|mm\b|kg\b|t\b|ans?\b|mois\b|jours?\b|heures?\b|minutes?\b|secondes?\b|semaines?\b|caractères\b|Mo\b|Ko\b|Go\b|HT\b|TTC\b))/gu,
		NBSP
	]
];

/**
 * The templates typeset every label, name and message at each render (scripts/svelte-typography.js): the same few
 * hundred short strings, page after page, nine regular-expression passes each — about 30 µs of a light signed-in
 * page's 0.9 ms of server time, measured with --cpu-prof. Their results are kept, the oldest dropped past
 * MEMO_ENTRIES. The members' pages show their names and e-mail addresses through it too, so the whole memo is let
 * go every MEMO_MAX_AGE_MS: a string is kept a minute at most. Long text (a Markdown body, typeset once per
 * revision where it is rendered) is not kept.
 */
export const MEMO_ENTRIES = 2_000;
export const MEMO_MAX_LENGTH = 300;
export const MEMO_MAX_AGE_MS = 60_000;
/** @type {Map<string, string>} */
const memo = new Map();
let memoSince = Date.now();

/**
 * The string with French typography applied; anything else returned as it is.
 * @template T
 * @param {T} value
 * @returns {T}
 */
export function typeset(value) {
	if (typeof value !== 'string' || value === '') return value;
	if (value.length > MEMO_MAX_LENGTH) return /** @type {T} */ (applyRules(value));
	const now = Date.now();
	if (now - memoSince >= MEMO_MAX_AGE_MS || now < memoSince) {
		memo.clear();
		memoSince = now;
	}
	let text = memo.get(value);
	if (text === undefined) {
		text = applyRules(value);
		setBounded(memo, value, text, MEMO_ENTRIES);
	}
	return /** @type {T} */ (text);
}

/** @param {string} value */
function applyRules(value) {
	let text = value;
	for (const [pattern, replacement] of rules)
		text = text.replace(pattern, /** @type {(match: string, word: string) => string} */ (replacement));
	return text;
}

/** How many typeset strings are kept (tests). */
export const memoSize = () => memo.size;

/** "de Annecy" → "d’Annecy", "de Lyon" → "de Lyon": for a name that comes from data after "de". */
export const de = (/** @type {string} */ name) => typeset(`de ${name}`);
