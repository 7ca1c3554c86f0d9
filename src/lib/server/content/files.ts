/**
 * One content file: YAML front matter checked against its schema, then a Markdown body, with `{{ company.… }}`
 * placeholders filled from the company file it belongs to. Both sites' content indexes read their files here
 * (the agency's legal pages: ./legal.ts; the showcase business's ~30 pages: showcase/content.ts).
 */
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { PLACEHOLDER, placeholderValue } from '$lib/content/checks';
import { renderMarkdown } from '$lib/markdown';

export interface ParsedFile<Meta> {
	slug: string;
	meta: Meta;
	/** The body, rendered to HTML (markdown-it, raw HTML off: see $lib/markdown). */
	html: string;
	/** Plain words of the body, for the reading time. */
	words: number;
	/** Minutes, at 220 words a minute. */
	readingMinutes: number;
	/** Headings of level 2 (id and text), for a page's table of contents. */
	headings: { id: string; text: string }[];
}

/** `{{ business.phone }}` → the company file's value; an unknown name stops everything (a typo never ships). */
export function fillPlaceholdersOrThrow(text: string, source: string, values: object): string {
	return text.replace(PLACEHOLDER, (_, name: string) => {
		const value = placeholderValue(name, values);
		if (value === null) throw new Error(`${source}: unknown placeholder {{${name}}}`);
		return value;
	});
}

const FRONT_MATTER = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/;

/** Throws, naming the file and the field, when the file does not say what its schema asks. */
export function parseContentFile<Schema extends z.ZodType>(
	file: string,
	raw: string,
	schema: Schema,
	values: object
): ParsedFile<z.output<Schema>> {
	const slug = file.split('/').pop()!.replace(/\.md$/, '');
	const match = FRONT_MATTER.exec(raw.replace(/\r\n/g, '\n'));
	if (!match) throw new Error(`${file}: no front matter`);
	let frontMatter: unknown;
	try {
		frontMatter = parseYaml(fillPlaceholdersOrThrow(match[1]!, file, values));
	} catch (error) {
		throw new Error(`${file}: ${(error as Error).message}`);
	}
	const parsed = schema.safeParse(frontMatter);
	if (!parsed.success)
		throw new Error(
			`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`
		);
	const body = fillPlaceholdersOrThrow(match[2]!, file, values);
	const html = renderMarkdown(body);
	const words = body.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
	const headings = [...html.matchAll(/<h2 id="([^"]+)"[^>]*>([\s\S]*?)<\/h2>/g)].map((m) => ({
		id: m[1]!,
		text: m[2]!.replace(/<[^>]+>/g, '')
	}));
	return {
		slug,
		meta: parsed.data,
		html,
		words,
		readingMinutes: Math.max(1, Math.ceil(words / 220)),
		headings
	};
}
