/**
 * One content model (issue « The house, part 5 », point 3): what a page receives (`PageContents`) is read from the
 * field specs of src/lib/content/model.ts, never written a second time. Proved with the TypeScript compiler on a
 * copy of the model: a field renamed there is a type error where a page still reads the old name — the twin it
 * replaces type-checked, and the page rendered `undefined`. The control reads the model as it is, without error.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

// Inside the repository, so that the copy resolves its packages (libphonenumber-js) as the original does.
const probes = mkdtempSync(path.join('.cache', 'content-model-'));
afterAll(() => rmSync(probes, { recursive: true, force: true }));

/** The compiler's errors for `reader`, run against a copy of the content model changed by `change`. */
function errorsOf(reader: string, change: (model: string) => string = (model) => model): string[] {
	const dir = mkdtempSync(path.join(probes, 'probe-'));
	for (const file of ['pages.ts', 'phone.ts'])
		cpSync(path.join('src/lib/content', file), path.join(dir, file));
	writeFileSync(path.join(dir, 'model.ts'), change(readFileSync('src/lib/content/model.ts', 'utf8')));
	writeFileSync(path.join(dir, 'reader.ts'), `import type { PageContents } from './pages';\n${reader}\n`);
	const program = ts.createProgram([path.join(dir, 'reader.ts')], {
		strict: true,
		noEmit: true,
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.ESNext,
		moduleResolution: ts.ModuleResolutionKind.Bundler,
		skipLibCheck: true
	});
	return ts
		.getPreEmitDiagnostics(program)
		.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const READER = `
declare const pages: PageContents;
export const read: [string, string, boolean, string, string[], string, string] = [
	pages.home.heroTitle,
	pages.contact.lead,
	pages.home.testimonials[0]!.example,
	pages['mentions-legales'].updated,
	pages.macon.areas,
	pages.home.faq[0]!.q,
	pages.candidature.html
];`;

describe('PageContents is the model’s, not a twin', () => {
	it('the control: every field a page reads is there, with its value’s type', () => {
		expect(errorsOf(READER)).toEqual([]);
	});

	it('a field renamed in the model is an error where a page reads the old name', () => {
		const renamed = errorsOf(READER, (model) =>
			model.replaceAll("{ key: 'heroTitle', label: 'Accroche'", "{ key: 'heroHeadline', label: 'Accroche'")
		);
		expect(renamed.join('\n')).toMatch(/Property 'heroTitle' does not exist/);
	});

	it('a field whose kind changes changes its type (a list of lines is not a line)', () => {
		const retyped = errorsOf(READER, (model) =>
			model.replace(
				"{ key: 'lead', label: 'Chapeau', kind: 'text', min: 20, max: 400 },\n\t\t\toptionalBody('Texte sous",
				"{ key: 'lead', label: 'Chapeau', kind: 'lines', itemMax: 60, max: 4 },\n\t\t\toptionalBody('Texte sous"
			)
		);
		expect(retyped.join('\n')).toMatch(/Type 'string\[\]' is not assignable to type 'string'/);
	});
});
