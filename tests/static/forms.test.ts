/**
 * One submission path per form (issue "Groundwork", point 4): a page's form posts to its action and superforms'
 * (or SvelteKit's) `enhance` improves it; no component re-implements submission with fetch. The one exception is
 * the admin upload's XMLHttpRequest, for its progress bar, and the content editor's autosave (fetch, in
 * $lib/content/editor-api.ts): each says why.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const svelteFiles = (dir: string): string[] =>
	readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return svelteFiles(relative);
		return entry.name.endsWith('.svelte') ? [relative] : [];
	});
const files = svelteFiles('src');
const source = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('forms submit through their actions', () => {
	it('finds the components it checks', () => {
		expect(files).toContain('src/lib/components/forms/ContactForm.svelte');
		expect(files).toContain('src/lib/components/admin/SlotCard.svelte');
	});

	it('has no fetch in any component or page', () => {
		expect(files.filter((file) => /\bfetch\(/.test(source(file)))).toEqual([]);
	});

	it("keeps fetch in the browser's code to the content editor's API client, with its reason written in it", () => {
		const modules = (dir: string): string[] =>
			readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
				const relative = path.posix.join(dir, entry.name);
				if (entry.isDirectory()) return relative === 'src/lib/server' ? [] : modules(relative);
				return /\.(ts|js)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [relative] : [];
			});
		const clients = modules('src/lib').filter((file) => /\bfetch\(/.test(source(file)));
		expect(clients).toEqual(['src/lib/content/editor-api.ts']);
		expect(source('src/lib/content/editor-api.ts')).toMatch(/a draft saved by itself a moment after each keystroke is no form submission/);
	});

	it('keeps XMLHttpRequest to the upload, with its reason written beside it', () => {
		expect(files.filter((file) => /XMLHttpRequest/.test(source(file)))).toEqual([
			'src/lib/components/admin/SlotCard.svelte'
		]);
		expect(source('src/lib/components/admin/SlotCard.svelte')).toMatch(/fetch cannot report upload progress/);
	});

	it('renders every form with a POST method or through <Form>', () => {
		// `method="dialog"` closes a <dialog> in the page (the editor's « Lien »): it never leaves the browser.
		const bare = files.filter((file) =>
			[...source(file).matchAll(/<form\b[^>]*>/g)].some(([tag]) => !/method="(POST|GET|dialog)"/.test(tag))
		);
		expect(bare).toEqual([]);
	});
});
