/**
 * A formatter is made once. `new Intl.DateTimeFormat(…)` (or `toLocaleString` with options, which makes one) builds an
 * ICU formatter: on a list of 200 dates rendered fifteen times, the formatters built per call took 120 MB of native
 * memory that the server kept (`/admin/questions` at years of use, issue « Years of use »), and most of each call's
 * time. So a formatter lives in a module's top level (`src/lib/format.ts`), never in a function nor in a component's
 * instance script, which runs for every render.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { root, sourceFiles } from './module-references';

const FUNCTION_KINDS = new Set([
	ts.SyntaxKind.FunctionDeclaration,
	ts.SyntaxKind.FunctionExpression,
	ts.SyntaxKind.ArrowFunction,
	ts.SyntaxKind.MethodDeclaration,
	ts.SyntaxKind.Constructor,
	ts.SyntaxKind.GetAccessor,
	ts.SyntaxKind.SetAccessor
]);
const LOCALE_METHODS = new Set(['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']);

/** Where `code` builds a formatter on each run: `new Intl.X()` inside a function, or `toLocale…String(locale, options)`. */
export function formattersBuiltPerCall(code: string, perRender = false): string[] {
	const source = ts.createSourceFile('code.ts', code, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const inFunction = (node: ts.Node) => {
		for (let at = node.parent; at; at = at.parent) if (FUNCTION_KINDS.has(at.kind)) return true;
		return false;
	};
	const visit = (node: ts.Node) => {
		const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
		if (
			ts.isNewExpression(node) &&
			ts.isPropertyAccessExpression(node.expression) &&
			node.expression.expression.getText() === 'Intl' &&
			(perRender || inFunction(node))
		)
			found.push(`line ${line}: ${node.getText().split('\n')[0]}`);
		if (
			ts.isCallExpression(node) &&
			ts.isPropertyAccessExpression(node.expression) &&
			LOCALE_METHODS.has(node.expression.name.text) &&
			node.arguments.length > 1
		)
			found.push(`line ${line}: ${node.getText().split('\n')[0]}`);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

it('finds a formatter built per call, and lets one made once pass', () => {
	expect(formattersBuiltPerCall(`const f = new Intl.DateTimeFormat('fr-FR'); const g = (d) => f.format(d);`)).toEqual([]);
	expect(formattersBuiltPerCall(`const g = (d) => new Intl.DateTimeFormat('fr-FR').format(d);`)).toHaveLength(1);
	expect(formattersBuiltPerCall(`function g(d) { return d.toLocaleString('fr-FR', { timeZone: 'UTC' }); }`)).toHaveLength(1);
	expect(formattersBuiltPerCall(`const label = (n) => n.toLocaleString('fr-FR');`)).toEqual([]);
	// A component's instance script runs for every render: there, even its top level is per call.
	expect(formattersBuiltPerCall(`const f = new Intl.NumberFormat('fr-FR');`, true)).toHaveLength(1);
});

it('no formatter of src/ is built per call or per render', () => {
	const offenders = sourceFiles('src').flatMap((file) => {
		const text = readFileSync(path.join(root, file), 'utf8');
		const blocks = file.endsWith('.svelte')
			? [...text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({
					code: m[2]!,
					perRender: !/\bmodule\b/.test(m[1]!)
				}))
			: [{ code: text, perRender: false }];
		return blocks.flatMap(({ code, perRender }) =>
			formattersBuiltPerCall(code, perRender).map((where) => `${file} ${where}`)
		);
	});
	expect(offenders).toEqual([]);
});
