/**
 * A form that sends a file has room for it: the server entry refuses any body past its route's limit
 * (src/lib/server/http/body-limits.ts), 64 KB unless the table says more, whatever the action would accept. The
 * attestation's public check said « 2 Mo au plus » while its route took 64 KB, and a PDF with its fonts and a
 * signature is larger: every multipart form of the app is found here and its action's limit asked of the table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyLimit, DEFAULT_BODY_LIMIT } from '../../src/lib/server/http/body-limits';

const root = path.resolve(import.meta.dirname, '../..');
const svelteFiles = (dir: string): string[] =>
	readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.posix.join(dir, entry.name);
		if (entry.isDirectory()) return svelteFiles(relative);
		return entry.name.endsWith('.svelte') ? [relative] : [];
	});

/** Components with a file form, and the pages whose actions they post to. */
const COMPONENT_PAGES: Record<string, string[]> = {
	'src/lib/components/admin/SlotCard.svelte': ['/admin/images'],
	'src/lib/components/courses/QuestionThread.svelte': [
		'/questions/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c',
		'/admin/questions/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c'
	]
};

/** A value each route parameter's matcher accepts. */
const SAMPLE_PARAMETERS: Record<string, string> = {
	'[id=uuid]': '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c',
	'[code]': 'abcdefghijklmnopqrstuvwxyz'
};

/** The paths a page's form posts to: its folder, without groups, with a sample for each parameter. */
function pathsOf(file: string): string[] {
	const component = COMPONENT_PAGES[file];
	if (component) return component;
	if (!file.startsWith('src/routes/') || !file.endsWith('/+page.svelte'))
		throw new Error(`${file} has a file form: name the page it posts to in COMPONENT_PAGES`);
	const segments = file
		.slice('src/routes/'.length, -'/+page.svelte'.length)
		.split('/')
		.filter((segment) => segment && !/^\(.*\)$/.test(segment))
		.map((segment) => {
			if (!segment.startsWith('[')) return segment;
			const sample = SAMPLE_PARAMETERS[segment];
			if (!sample) throw new Error(`${file}: give ${segment} a sample value in SAMPLE_PARAMETERS`);
			return sample;
		});
	return [`/${segments.join('/')}`];
}

const fileForms = svelteFiles('src').flatMap((file) =>
	[...readFileSync(path.join(root, file), 'utf8').matchAll(/<form\b[^>]*>/g)]
		.map((match) => match[0])
		.filter((tag) => /enctype="multipart\/form-data"/.test(tag))
		.flatMap((tag) => {
			// `action="?/name"` posts to the page's own path; `action="/path?/name"` to another page's.
			const [, target, action] = /action="([^"?]*)\?\/(\w+)/.exec(tag) ?? [];
			return (target ? [target] : pathsOf(file)).map((path) => ({ file, path, action: action ?? null }));
		})
);

describe('a form that sends a file', () => {
	it('finds the file forms of the app (the site’s photos, the course’s images, the signature, the check)', () => {
		expect(fileForms.map((form) => `${form.path}?/${form.action}`).sort()).toEqual([
			'/admin/cours/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c?/image',
			'/admin/cours?/signature',
			'/admin/images?/upload',
			'/admin/questions/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c?/reply',
			'/attestation/abcdefghijklmnopqrstuvwxyz?/file',
			'/questions/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c?/reply',
			'/questions?/ask'
		]);
	});

	it.each(fileForms.map((form) => [form.file, form.path, form.action] as const))(
		'%s (%s?/%s) posts to a route whose body limit is larger than a plain form’s',
		(file, path, action) => {
			expect(action, `${file}: a file form posts to a named action`).not.toBeNull();
			expect(bodyLimit('POST', `${path}?/${action}`)).toBeGreaterThan(DEFAULT_BODY_LIMIT);
		}
	);
});
