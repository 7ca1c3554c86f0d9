/**
 * Every file of a folder the app can load code from, and every module each one reaches — the one reader the static
 * walkers share, so that a `.js`, `.mjs` or `.svelte` file is read like a `.ts` one (issue « The house, part 4 »,
 * point 1). The forms read: `import`/`export … from`, `import x = require()`, `import()` (a string, a template with
 * or without substitutions, anything else), `require()`, `import.meta.glob` (its patterns expanded on disk, each
 * file it matches a reference of its own).
 */
import { existsSync, globSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { CODE_FILE, TEST_FILE, resolveSpecifier } from '../../scripts/boundaries.js';

export const root = path.join(import.meta.dirname, '..', '..');

/** Every code file under `dir` (repository-relative), tests excepted: `.ts`, `.js`, `.svelte` and the rest. */
export function sourceFiles(dir: string): string[] {
	return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return sourceFiles(relative);
		return CODE_FILE.test(entry.name) && !TEST_FILE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
	});
}

/** The code of a file as TypeScript reads it: a Svelte component's `<script>` blocks, joined. */
export function scriptOf(file: string, text: string): string {
	if (!file.endsWith('.svelte')) return text;
	return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

export interface ModuleReference {
	/** How it is written, for the messages. */
	form: 'import' | 'export' | 'import()' | 'require' | 'import.meta.glob';
	/** The repository-relative file or the package it reaches; null when the module is named at run time. */
	target: string | null;
	/** The names taken; null for the module whole. */
	names: string[] | null;
	typeOnly: boolean;
}

const exists = (file: string) => existsSync(file) && statSync(file).isFile();
const resolve = (file: string, specifier: string) => resolveSpecifier(root, file, specifier, exists);

/** A string the code writes in full: a literal, or a template without substitutions. */
function constantText(node: ts.Node | undefined): string | null {
	if (!node) return null;
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
	return null;
}

/**
 * The files an `import.meta.glob` pattern matches, as Vite reads it: `/src/…` from the root, `./…` from the file —
 * or from its `base` option when it has one (itself from the root when it starts with `/`, else from the file).
 */
function globbed(file: string, pattern: string, base: string | null = null): string[] {
	const negated = pattern.startsWith('!');
	if (negated) return [];
	const from = base === null ? path.dirname(file) : base.startsWith('/') ? base.slice(1) : path.join(path.dirname(file), base);
	const full = pattern.startsWith('/') ? pattern.slice(1) : path.join(from, pattern);
	return globSync(path.normalize(full), { cwd: root }).map((match) => match.split(path.sep).join('/'));
}

/** A glob's `base` option: its text, null without one, undefined when it is named at run time. */
function globBase(options: ts.Node | undefined): string | null | undefined {
	if (!options || !ts.isObjectLiteralExpression(options)) return null;
	const property = options.properties.find(
		(p) => ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === 'base'
	);
	if (!property) return null;
	return ts.isPropertyAssignment(property) ? (constantText(property.initializer) ?? undefined) : undefined;
}

export function moduleReferences(file: string, text: string): ModuleReference[] {
	const source = ts.createSourceFile(file, scriptOf(file, text), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
	const found: ModuleReference[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
			const clause = node.importClause;
			const bindings = clause?.namedBindings;
			const elements = bindings && ts.isNamedImports(bindings) ? bindings.elements : [];
			const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!bindings && ts.isNamedImports(bindings) && elements.length > 0 && elements.every((e) => e.isTypeOnly)));
			const names =
				bindings && ts.isNamespaceImport(bindings)
					? null
					: [...(clause?.name ? ['default'] : []), ...elements.map((e) => (e.propertyName ?? e.name).text)];
			found.push({ form: 'import', target: resolve(file, node.moduleSpecifier.text), names: clause ? names : [], typeOnly });
		} else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
			const clause = node.exportClause;
			const names = clause && ts.isNamedExports(clause) ? clause.elements.map((e) => (e.propertyName ?? e.name).text) : null;
			const typeOnly = node.isTypeOnly || (!!clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly));
			found.push({ form: 'export', target: resolve(file, node.moduleSpecifier.text), names, typeOnly });
		} else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
			const text = constantText(node.moduleReference.expression);
			found.push({ form: 'require', target: text === null ? null : resolve(file, text), names: null, typeOnly: node.isTypeOnly });
		} else if (ts.isCallExpression(node)) {
			const callee = node.expression;
			const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
			const isRequire = ts.isIdentifier(callee) && (callee.text === 'require' || callee.text === 'createRequire');
			const isGlob =
				ts.isPropertyAccessExpression(callee) &&
				/^glob(Eager)?$/.test(callee.name.text) &&
				ts.isMetaProperty(callee.expression);
			if (isImport || isRequire) {
				const text = constantText(node.arguments[0]);
				found.push({ form: isImport ? 'import()' : 'require', target: text === null ? null : resolve(file, text), names: null, typeOnly: false });
			} else if (isGlob) {
				const argument = node.arguments[0];
				const patterns = argument && ts.isArrayLiteralExpression(argument) ? [...argument.elements] : [argument];
				const base = globBase(node.arguments[1]);
				for (const pattern of patterns) {
					const text = constantText(pattern);
					if (text === null || base === undefined)
						found.push({ form: 'import.meta.glob', target: null, names: null, typeOnly: false });
					else
						for (const match of globbed(file, text, base))
							found.push({ form: 'import.meta.glob', target: match, names: null, typeOnly: false });
				}
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}
