/**
 * The one Markdown renderer of the course modules, used for members' pages and the editor's live preview alike
 * (client-safe). markdown-it with raw HTML off — any tag, comment or event handler in the source is escaped as
 * text — and links restricted to http(s), mailto, tel, site-relative paths and anchors: `javascript:`, `data:`
 * and every other scheme are refused. Images only come from `/cours/media/…`, the route that checks access.
 */
import MarkdownIt from 'markdown-it';
import { slugify } from './slug';
import { typeset } from './typography.js';

/** Where module images are served from, to those who may read the module. */
export const MODULE_MEDIA_PREFIX = '/cours/media/';

const SAFE_LINK = /^(?:https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i;

export { slugify } from './slug';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
// Every URL goes through here before it becomes an href or a src; what fails it stays text.
md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
// Each heading gets an id from its text (`#les-fondations`), the same text twice `-1`, `-2`…: counted per text, so
// that a body of 15,000 identical headings costs 15,000 steps (markdown-it-anchor tried every suffix from 1 each
// time, and such a body took two minutes per view).
md.core.ruler.push('heading_ids', (state) => {
	const taken = new Set<string>();
	const nextSuffix = new Map<string, number>();
	for (const [index, token] of state.tokens.entries()) {
		if (token.type !== 'heading_open') continue;
		const text = (state.tokens[index + 1]?.children ?? [])
			.filter((child) => child.type === 'text' || child.type === 'code_inline')
			.map((child) => child.content)
			.join('');
		const base = slugify(text);
		if (!base) continue;
		let id = base;
		if (taken.has(id)) {
			let suffix = nextSuffix.get(base) ?? 1;
			while (taken.has(`${base}-${suffix}`)) suffix++;
			id = `${base}-${suffix}`;
			nextSuffix.set(base, suffix + 1);
		}
		taken.add(id);
		token.attrSet('id', id);
	}
});
// French typography on the prose: text tokens only (never code spans, code blocks or URLs).
md.core.ruler.push('french_typography', (state) => {
	for (const block of state.tokens) {
		for (const token of block.children ?? [])
			if (token.type === 'text') token.content = typeset(token.content);
	}
});

// A table's cells carry their column's name (`data-label`), so that a phone can show each row as a card with
// every value under its name instead of a table wider than the screen.
md.core.ruler.push('cell_labels', (state) => {
	let headers: string[] = [];
	let column = 0;
	for (const [index, token] of state.tokens.entries()) {
		if (token.type === 'thead_open') headers = [];
		else if (token.type === 'th_open') headers.push(state.tokens[index + 1]?.content ?? '');
		else if (token.type === 'tr_open') column = 0;
		else if (token.type === 'td_open') {
			const label = headers[column++];
			if (label) token.attrSet('data-label', label);
		}
	}
});

// Images: only from the access-checked media route; anything else is dropped, its alt text kept.
const defaultImage = md.renderer.rules.image!;
md.renderer.rules.image = (tokens, index, options, env, self) => {
	const token = tokens[index]!;
	const src = String(token.attrGet('src') ?? '');
	if (!src.startsWith(MODULE_MEDIA_PREFIX) || src.includes('..')) return md.utils.escapeHtml(token.content);
	token.attrSet('loading', 'lazy');
	return defaultImage(tokens, index, options, env, self);
};
// Links that leave the site open in a new tab without handing it the opener.
const defaultLinkOpen =
	md.renderer.rules.link_open ??
	((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
	const token = tokens[index]!;
	if (/^https?:\/\//i.test(String(token.attrGet('href') ?? ''))) {
		token.attrSet('rel', 'noopener noreferrer');
		token.attrSet('target', '_blank');
	}
	return defaultLinkOpen(tokens, index, options, env, self);
};

// A code block scrolls sideways when its lines are long: it takes the keyboard's focus (axe
// `scrollable-region-focusable`) and is named, so that a keyboard can scroll it and a screen reader says what it is.
for (const rule of ['fence', 'code_block'] as const) {
	const render = md.renderer.rules[rule]!;
	md.renderer.rules[rule] = (tokens, index, options, env, self) =>
		render(tokens, index, options, env, self).replace(
			/^<pre>/,
			'<pre tabindex="0" role="group" aria-label="Bloc de code">'
		);
}

export function renderMarkdown(source: string): string {
	return md.render(source);
}
