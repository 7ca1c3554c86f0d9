/**
 * No import circles in src/lib/server: a module that two others need lives apart from both (images/slot-values.ts
 * between the proxy and the admin's service, leads/filters.ts owning the inbox's tabs). A circle makes the order
 * of module evaluation decide whether a value is there yet; this walks every module's imports (types included,
 * read with TypeScript's parser) and names each circle it finds.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = 'src/lib/server';

function modules(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return modules(full);
		return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
	});
}

/** The module file an import names, for the project's own modules (relative or `$lib/…`); null for packages. */
function resolve(from: string, specifier: string): string | null {
	let base: string;
	if (specifier.startsWith('.')) base = path.join(path.dirname(from), specifier);
	else if (specifier.startsWith('$lib/')) base = path.join('src/lib', specifier.slice('$lib/'.length));
	else return null;
	for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base])
		if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
	return null;
}

function importsOf(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
	return source.statements.flatMap((statement) => {
		const specifier =
			(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
			statement.moduleSpecifier &&
			ts.isStringLiteral(statement.moduleSpecifier)
				? statement.moduleSpecifier.text
				: null;
		const target = specifier && resolve(file, specifier);
		return target ? [target] : [];
	});
}

it('src/lib/server has no import circle', () => {
	const graph = new Map(modules(ROOT).map((file) => [file, importsOf(file)]));
	const circles: string[] = [];
	const path: string[] = [];
	const visiting = new Set<string>();
	const visited = new Set<string>();
	const visit = (file: string) => {
		path.push(file);
		visiting.add(file);
		for (const next of graph.get(file) ?? []) {
			if (visiting.has(next)) circles.push([...path.slice(path.indexOf(next)), next].join(' → '));
			else if (!visited.has(next)) visit(next);
		}
		path.pop();
		visiting.delete(file);
		visited.add(file);
	};
	for (const file of graph.keys()) if (!visited.has(file)) visit(file);
	expect(graph.size).toBeGreaterThan(50);
	expect(circles).toEqual([]);
});
