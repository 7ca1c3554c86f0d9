/**
 * The business's name is the company file's (`company.brand`, edited in /admin/pages): a page that writes it by
 * hand keeps the old one after a rename — the members' titles said « — Atelier » whatever the brand (7 December).
 * Atelier, the software, may be named where a page speaks of it (the first admin's setup), nowhere else.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { root, sourceFiles } from './module-references';

const SOFTWARE_NAMED = new Set(['src/routes/(auth)/setup-admin/+page.svelte']);

/** A component's markup and script, its comments left out (they may name anything). */
const withoutComments = (source: string) =>
	source.replace(/<!--[\s\S]*?-->/g, '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const brandWrittenByHand = (source: string) =>
	withoutComments(source)
		.split('\n')
		.filter((line) => /\bAtelier\b/.test(line));

it('no page or component writes the brand by hand', () => {
	const files = [...sourceFiles('src/routes'), ...sourceFiles('src/lib/components')].filter(
		(file) => file.endsWith('.svelte') && !SOFTWARE_NAMED.has(file)
	);
	expect(files.length).toBeGreaterThan(50);
	const written = files.flatMap((file) =>
		brandWrittenByHand(readFileSync(path.join(root, file), 'utf8')).map((line) => `${file}: ${line.trim()}`)
	);
	expect(written).toEqual([]);
});

it('sees a title that names the brand by hand, and not one that names it from the company file', () => {
	expect(brandWrittenByHand('<svelte:head><title>Mon profil — Atelier</title></svelte:head>')).toHaveLength(1);
	expect(brandWrittenByHand('<PageHead description="Votre compte Atelier." />')).toHaveLength(1);
	expect(brandWrittenByHand('<title>Mon profil — {company.brand}</title>\n<!-- not Atelier -->')).toEqual([]);
});
