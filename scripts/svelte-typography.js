// A Svelte preprocessor that applies French typography ($lib/typography) to what the public pages' templates
// show: their text is rewritten at build time, and each `{expression}` shown as text is wrapped in `typeset()`,
// so data (company details, demo content, messages) gets the same rules at render — on the server and in the
// browser alike (no hydration mismatch). Attribute values are left alone (URLs, ids, classes) except those read
// as text: alt, title, aria-label, placeholder, and the text props of components (label, title, description…).
// Never inside <pre>, <code>, <textarea>, <script> or <style>. The admin's pages are not rewritten: they show
// what people typed, exactly.
import MagicString from 'magic-string';
import { parse } from 'svelte/compiler';

const TEXT_ATTRIBUTES = new Set(['alt', 'title', 'aria-label', 'placeholder']);
const TEXT_PROPS = new Set(['alt', 'title', 'label', 'description', 'text', 'hint', 'lead', 'placeholder']);
const VERBATIM = new Set(['pre', 'code', 'textarea', 'script', 'style']);
const HELPER = '__typeset';

/**
 * @param {{ include: RegExp, typeset: (text: string) => string }} options
 * @returns {import('svelte/compiler').PreprocessorGroup}
 */
export function typography({ include, typeset }) {
	return {
		name: 'french-typography',
		markup({ content, filename }) {
			if (!filename || !include.test(filename.replaceAll('\\', '/'))) return;
			const ast = parse(content, { modern: true });
			const out = new MagicString(content);
			let wrapped = 0;

			/** @param {any} node */
			const text = (node) => {
				const next = typeset(node.raw);
				if (next !== node.raw) out.overwrite(node.start, node.end, next);
			};
			/** @param {any} node */
			const expression = (node) => {
				out.appendLeft(node.expression.start, `${HELPER}(`);
				out.prependRight(node.expression.end, ')');
				wrapped++;
			};
			/** @param {any} attribute @param {boolean} component */
			const attribute = (attribute, component) => {
				if (attribute.type !== 'Attribute') return;
				const names = component ? TEXT_PROPS : TEXT_ATTRIBUTES;
				if (!names.has(attribute.name) || attribute.value === true) return;
				// `{alt}` is short for `alt={alt}`: spelled out, so that its value can be wrapped.
				if (!component && content[attribute.start] === '{') {
					out.overwrite(attribute.start, attribute.end, `${attribute.name}={${HELPER}(${attribute.name})}`);
					wrapped++;
					return;
				}
				const parts = Array.isArray(attribute.value) ? attribute.value : [attribute.value];
				for (const part of parts) {
					if (part.type === 'Text') text(part);
					// A component prop given as one expression may be anything: only a text attribute's is wrapped.
					else if (part.type === 'ExpressionTag' && (!component || parts.length > 1)) expression(part);
				}
			};
			/** @param {any} fragment */
			const walk = (fragment) => {
				for (const node of fragment?.nodes ?? []) {
					if (node.type === 'Text') text(node);
					else if (node.type === 'ExpressionTag') expression(node);
					else if (node.type === 'RegularElement' || node.type === 'SvelteElement') {
						if (VERBATIM.has(node.name)) continue;
						for (const a of node.attributes) attribute(a, false);
						walk(node.fragment);
					} else if (node.type === 'Component' || node.type === 'SvelteComponent') {
						for (const a of node.attributes) attribute(a, true);
						walk(node.fragment);
					} else {
						// Blocks ({#if}, {#each}, {#snippet}, …) and svelte:head / svelte:fragment: their fragments.
						for (const key of [
							'fragment',
							'consequent',
							'alternate',
							'body',
							'fallback',
							'pending',
							'then',
							'catch'
						])
							if (node[key]?.type === 'Fragment') walk(node[key]);
					}
				}
			};
			walk(ast.fragment);
			if (!out.hasChanged()) return;
			if (wrapped > 0) {
				const line = `import { typeset as ${HELPER} } from '$lib/typography';`;
				if (ast.instance) out.appendLeft(/** @type {any} */ (ast.instance.content).start, `\n${line}\n`);
				else out.prepend(`<script>${line}</script>\n`);
			}
			return { code: out.toString(), map: out.generateMap({ hires: true, source: filename }) };
		}
	};
}
