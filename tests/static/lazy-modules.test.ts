/**
 * Packages the server loads only when it needs them (src/lib/server/courses/pdf-documents.ts says why): the PDF
 * stack — pdf-lib, fontkit, wawoff2 — took 46 MB of every server's memory from its start, for documents most
 * servers make a few times a day. So no module reaches them by a static import but the renderers themselves, which
 * the rest reaches through `import()` only: a route, a service or a component that imported `durationText` from
 * `attestation-pdf.ts` would load the whole stack with it, and is named here. Every form of reference is read
 * (tests/static/module-references.ts), types excepted: a type-only import loads nothing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleReferences, root, sourceFiles } from './module-references';

const LAZY_PACKAGES = ['pdf-lib', '@pdf-lib/fontkit', 'wawoff2'];
/** The renderers and the helpers only they use: the modules that may load the packages. */
const RENDERERS = [
	'src/lib/server/courses/attestation-pdf.ts',
	'src/lib/server/courses/certificate-pdf.ts',
	'src/lib/server/courses/pdf-fonts.ts',
	'src/lib/server/courses/pdf-metadata.ts',
	'src/lib/server/courses/pdf-structure.ts'
];

/** Each file's static references (what loads with it): imports, re-exports and `require`, types excepted. */
function staticGraph(files: string[]): Map<string, string[]> {
	return new Map(
		files.map((file) => [
			file,
			moduleReferences(file, readFileSync(path.join(root, file), 'utf8'))
				.filter((reference) => reference.form !== 'import()' && reference.form !== 'import.meta.glob')
				.filter((reference) => !reference.typeOnly && reference.target !== null)
				.map((reference) => reference.target!)
		])
	);
}

/** The files whose loading loads one of `packages`, through any chain of static references. */
function loadersOf(graph: Map<string, string[]>, packages: string[]): string[] {
	const loads = new Map<string, boolean>();
	const visit = (file: string, trail: Set<string>): boolean => {
		if (packages.includes(file)) return true;
		const known = loads.get(file);
		if (known !== undefined) return known;
		if (trail.has(file)) return false;
		trail.add(file);
		const result = (graph.get(file) ?? []).some((target) => visit(target, trail));
		trail.delete(file);
		loads.set(file, result);
		return result;
	};
	return [...graph.keys()].filter((file) => visit(file, new Set())).sort();
}

describe('the PDF stack', () => {
	const graph = staticGraph(sourceFiles('src'));

	it('is loaded by the renderers alone, which the rest reaches through import()', () => {
		expect(loadersOf(graph, LAZY_PACKAGES)).toEqual([...RENDERERS].sort());
	});

	it('would name a route that imported a renderer statically (control)', () => {
		const planted = new Map(graph);
		planted.set('src/routes/planted/+page.server.ts', ['src/lib/server/courses/attestation-pdf.ts']);
		expect(loadersOf(planted, LAZY_PACKAGES)).toContain('src/routes/planted/+page.server.ts');
		// The real way in is an import() of its own.
		expect(graph.get('src/lib/server/courses/pdf-documents.ts') ?? []).not.toContain(
			'src/lib/server/courses/attestation-pdf.ts'
		);
	});
});
