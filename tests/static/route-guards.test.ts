/**
 * Every admin entry point calls requireAdmin first (DESIGN.md, "Guard every entry point"): this walks every
 * route file under src/routes/admin and src/routes/api/admin and fails on any exported load, action or
 * handler whose first statement is not a requireAdmin call. The layout's redirect is not the authority.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Public on purpose: the first-admin bootstrap works only while no admin exists (SEED.md part 4). */
const PUBLIC_ENTRY_POINTS = new Set(['src/routes/api/admin/setup/+server.ts POST']);

/** Admin entry points must call requireAdmin; members' pages requireUser (or requireAdmin, which implies it). */
const ADMIN_GUARDS = new Set(['requireAdmin']);
const MEMBER_GUARDS = new Set(['requireUser', 'requireAdmin']);

const HANDLER_NAMES = new Set(['load', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'fallback']);
/** A route module whatever its extension: a `+page.server.js` is loaded like a `+page.server.ts`. */
export const ROUTE_FILE = /^\+(page|layout)\.server\.[cm]?[jt]s$|^\+server\.[cm]?[jt]s$/;

function routeFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return routeFiles(full);
		return ROUTE_FILE.test(entry.name) ? [full] : [];
	});
}

type FunctionNode = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration;

const isFunction = (node: ts.Node | undefined): node is FunctionNode =>
	!!node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node));

/** The function behind `x = fn`, `x = api(fn)`, `x = something satisfies T`. */
function unwrap(node: ts.Expression | undefined): FunctionNode | undefined {
	if (!node) return undefined;
	if (isFunction(node)) return node;
	if (ts.isSatisfiesExpression(node) || ts.isAsExpression(node) || ts.isParenthesizedExpression(node)) return unwrap(node.expression);
	if (ts.isCallExpression(node)) return node.arguments.map((a) => unwrap(a)).find(Boolean);
	return undefined;
}

function callsGuardFirst(fn: FunctionNode, guards: ReadonlySet<string>): boolean {
	if (!fn.body) return false;
	const first: ts.Node | undefined = ts.isBlock(fn.body) ? fn.body.statements[0] : fn.body;
	if (!first) return false;
	let found = false;
	const visit = (node: ts.Node) => {
		if (ts.isCallExpression(node)) {
			const callee = node.expression;
			const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
			if (guards.has(name)) found = true;
		}
		// Do not look into nested functions: a guard inside a callback does not guard the entry point.
		if (!isFunction(node)) ts.forEachChild(node, visit);
	};
	visit(first);
	return found;
}

/** Each exported entry point of a route module, as "file NAME" → whether it is guarded. */
export function entryPoints(fileName: string, source: string, guards: ReadonlySet<string> = ADMIN_GUARDS): Map<string, boolean> {
	const callsRequireAdminFirst = (fn: FunctionNode) => callsGuardFirst(fn, guards);
	const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
	const result = new Map<string, boolean>();
	const exported = (node: ts.Node) =>
		ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
	for (const statement of file.statements) {
		if (ts.isFunctionDeclaration(statement) && exported(statement) && statement.name && HANDLER_NAMES.has(statement.name.text)) {
			result.set(`${fileName} ${statement.name.text}`, callsRequireAdminFirst(statement));
		}
		if (!ts.isVariableStatement(statement) || !exported(statement)) continue;
		for (const declaration of statement.declarationList.declarations) {
			if (!ts.isIdentifier(declaration.name)) continue;
			const name = declaration.name.text;
			if (HANDLER_NAMES.has(name)) {
				const fn = unwrap(declaration.initializer);
				result.set(`${fileName} ${name}`, !!fn && callsRequireAdminFirst(fn));
			} else if (name === 'actions') {
				for (const [key, fn] of actionsOf(fileName, file, declaration.initializer))
					result.set(`${fileName} actions.${key}`, !!fn && callsRequireAdminFirst(fn));
			}
		}
	}
	return result;
}

/**
 * The actions an `actions` export holds, by name: an object literal's properties, and what its spreads and a bare
 * name bring from the module that defines them (a shared action set, `admin/demandes/lead-actions.server.ts`).
 * Anything the walker cannot read counts as an unguarded action.
 */
function actionsOf(fileName: string, file: ts.SourceFile, init: ts.Expression | undefined, depth = 0): Map<string, FunctionNode | undefined> {
	const found = new Map<string, FunctionNode | undefined>();
	while (init && (ts.isSatisfiesExpression(init) || ts.isAsExpression(init) || ts.isParenthesizedExpression(init))) init = init.expression;
	if (init && ts.isIdentifier(init) && depth < 3) {
		const defined = definitionOf(fileName, file, init.text);
		if (defined) return actionsOf(defined.fileName, defined.file, defined.init, depth + 1);
	}
	if (!init || !ts.isObjectLiteralExpression(init)) return new Map([['(unreadable)', undefined]]);
	for (const property of init.properties) {
		if (ts.isSpreadAssignment(property)) {
			for (const [key, fn] of actionsOf(fileName, file, property.expression, depth + 1)) found.set(key, fn);
			continue;
		}
		const key = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : '?';
		const fn = ts.isPropertyAssignment(property) ? unwrap(property.initializer) : ts.isMethodDeclaration(property) ? (property as unknown as FunctionNode) : undefined;
		found.set(key, fn);
	}
	return found;
}

/** Where a name used in a module is defined: a `const` of the module itself, or one a relative import brings. */
function definitionOf(fileName: string, file: ts.SourceFile, name: string): { fileName: string; file: ts.SourceFile; init: ts.Expression | undefined } | null {
	for (const statement of file.statements) {
		if (ts.isVariableStatement(statement))
			for (const declaration of statement.declarationList.declarations)
				if (ts.isIdentifier(declaration.name) && declaration.name.text === name) return { fileName, file, init: declaration.initializer };
		if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
		const bindings = statement.importClause?.namedBindings;
		const imported = bindings && ts.isNamedImports(bindings) && bindings.elements.find((e) => e.name.text === name);
		if (!imported || !statement.moduleSpecifier.text.startsWith('.')) continue;
		const target = path.join(path.dirname(fileName), `${statement.moduleSpecifier.text}.ts`);
		const source = ts.createSourceFile(target, readFileSync(target, 'utf8'), ts.ScriptTarget.Latest, true);
		return definitionOf(target, source, (imported.propertyName ?? imported.name).text);
	}
	return null;
}

/**
 * Admin entry points that change something, or hand personal data or the whole site over: each must pass the admin
 * that `requireAdmin` returned on to the domain (whose function writes the audit row in the action's transaction,
 * tests/integration/audit.integration.test.ts), or hand the request to a shared action that does.
 */
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const AUDITED_DOWNLOADS = new Set([
	'src/routes/admin/demandes/export.csv/+server.ts GET',
	'src/routes/admin/sauvegarde/archive/+server.ts GET',
	'src/routes/admin/sauvegarde/archive/+server.ts POST',
	'src/routes/admin/utilisateurs/[id=uuid]/donnees/+server.ts GET'
]);

/** The name the first statement binds to the guard's result: `const admin = await requireAdmin(event)`. */
function adminBinding(fn: FunctionNode): string | null {
	if (!fn.body || !ts.isBlock(fn.body)) return null;
	const first = fn.body.statements[0];
	if (!first || !ts.isVariableStatement(first)) return null;
	const [declaration] = first.declarationList.declarations;
	if (!declaration || !ts.isIdentifier(declaration.name) || !declaration.initializer) return null;
	return callsGuardFirst(fn, ADMIN_GUARDS) ? declaration.name.text : null;
}

/**
 * Whether an admin entry point hands its admin on: a call after the guard takes the bound admin as an argument
 * (in a callback too: `schemaAction(…, async () => leads.remove(id, admin))`), or the request goes to an action of
 * a shared set that does (`leadActions.delete(event)`).
 */
function handsAdminOn(fileName: string, file: ts.SourceFile, fn: FunctionNode, depth = 0): boolean {
	const admin = adminBinding(fn);
	let handed = false;
	const visit = (node: ts.Node) => {
		if (ts.isCallExpression(node)) {
			if (admin && node.arguments.some((a) => ts.isIdentifier(a) && a.text === admin)) handed = true;
			const callee = node.expression;
			if (depth < 2 && ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
				const shared = actionsOf(fileName, file, callee.expression, depth + 1).get(callee.name.text);
				const home = definitionOf(fileName, file, callee.expression.text);
				if (shared && home && handsAdminOn(home.fileName, home.file, shared, depth + 1)) handed = true;
			}
		}
		ts.forEachChild(node, visit);
	};
	if (fn.body) visit(fn.body);
	return handed;
}

/** Each admin mutation (actions, POST/PUT/PATCH/DELETE, the audited downloads) → whether it hands its admin on. */
export function adminMutations(fileName: string, source: string): Map<string, boolean> {
	const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
	const result = new Map<string, boolean>();
	const exported = (node: ts.Node) =>
		ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
	const consider = (name: string, fn: FunctionNode | undefined) => {
		const key = `${fileName} ${name}`;
		if (name.startsWith('actions.') || MUTATING.has(name) || AUDITED_DOWNLOADS.has(key))
			result.set(key, !!fn && handsAdminOn(fileName, file, fn));
	};
	for (const statement of file.statements) {
		if (ts.isFunctionDeclaration(statement) && exported(statement) && statement.name) consider(statement.name.text, statement);
		if (!ts.isVariableStatement(statement) || !exported(statement)) continue;
		for (const declaration of statement.declarationList.declarations) {
			if (!ts.isIdentifier(declaration.name)) continue;
			const name = declaration.name.text;
			if (name === 'actions') for (const [key, fn] of actionsOf(fileName, file, declaration.initializer)) consider(`actions.${key}`, fn);
			else if (HANDLER_NAMES.has(name)) consider(name, unwrap(declaration.initializer));
		}
	}
	return result;
}

describe('the audit walker', () => {
	it('flags a mutation that does not hand the admin it checked to the domain', () => {
		const found = adminMutations(
			'z/+page.server.ts',
			`export const load = async (e) => { await requireAdmin(e); return {}; };
			 export const actions = {
				 ok: async (e) => { const admin = await requireAdmin(e); return act(e, async (id) => leads.remove(id, admin)); },
				 dropped: async (e) => { await requireAdmin(e); await leads.remove('x'); },
				 unused: async (e) => { const admin = await requireAdmin(e); await leads.remove('x'); }
			 };
			 export const PUT = api(async (event) => { const admin = await requireAdmin(event); return json(await x.update(1, admin)); });
			 export const DELETE = api(async (event) => { await requireAdmin(event); return new Response(); });`
		);
		expect(Object.fromEntries(found)).toEqual({
			'z/+page.server.ts actions.ok': true,
			'z/+page.server.ts actions.dropped': false,
			'z/+page.server.ts actions.unused': false,
			'z/+page.server.ts PUT': true,
			'z/+page.server.ts DELETE': false
		});
	});
});

describe('the guard walker', () => {
	it('flags an entry point without requireAdmin, or with it too late or nested', () => {
		const found = entryPoints(
			'x/+page.server.ts',
			`export const load = async (e) => { await requireAdmin(e); return {}; };
			 export const actions = {
				 ok: async (e) => { const a = await auth.requireAdmin(e); return a; },
				 late: async (e) => { const f = 1; await requireAdmin(e); },
				 nested: async (e) => { [1].map(() => requireAdmin(e)); },
				 none: async () => {}
			 };
			 export const GET = api(async (event) => { await auth.requireAdmin(event); return new Response(); });
			 export async function POST() { return new Response(); }`
		);
		expect(Object.fromEntries(found)).toEqual({
			'x/+page.server.ts load': true,
			'x/+page.server.ts actions.ok': true,
			'x/+page.server.ts actions.late': false,
			'x/+page.server.ts actions.nested': false,
			'x/+page.server.ts actions.none': false,
			'x/+page.server.ts GET': true,
			'x/+page.server.ts POST': false
		});
	});
});

describe('the guard walker on shared action sets', () => {
	it('follows a spread or a bare name to where the actions are written, and flags what it cannot read', () => {
		const found = (source: string) => Object.fromEntries(entryPoints('y/+page.server.ts', source));
		const shared = `const shared = { guarded: async (e) => { await requireAdmin(e); }, open: async () => {} };`;
		expect(found(`${shared} export const actions = { ...shared, own: async () => { await requireAdmin(); } };`)).toEqual({
			'y/+page.server.ts actions.guarded': true,
			'y/+page.server.ts actions.open': false,
			'y/+page.server.ts actions.own': true
		});
		expect(found(`${shared} export const actions = shared satisfies Actions;`)).toEqual({
			'y/+page.server.ts actions.guarded': true,
			'y/+page.server.ts actions.open': false
		});
		expect(found(`export const actions = makeActions();`)).toEqual({ 'y/+page.server.ts actions.(unreadable)': false });
	});
});

describe('a route of any extension', () => {
	it('is a route file to the walker, and its unguarded load is found (issue « The house, part 4 », point 1)', () => {
		for (const name of ['+page.server.js', '+layout.server.mjs', '+server.js', '+server.mts'])
			expect(ROUTE_FILE.test(name), name).toBe(true);
		const planted = `import { vouch } from '$lib/server/leads/vouch.js';\nexport const load = () => vouch();\n`;
		expect(entryPoints('src/routes/admin/planted/+page.server.js', planted)).toEqual(
			new Map([['src/routes/admin/planted/+page.server.js load', false]])
		);
	});
});

describe('every admin entry point', () => {
	const files = [...routeFiles('src/routes/admin'), ...routeFiles('src/routes/api/admin')];
	const points = new Map(files.flatMap((file) => [...entryPoints(file, readFileSync(file, 'utf8'))]));

	it('has route files to check', () => {
		expect(files.length).toBeGreaterThan(0);
		expect(points.size).toBeGreaterThan(0);
	});

	it('calls requireAdmin as its first statement', () => {
		const unguarded = [...points].filter(([name, guarded]) => !guarded && !PUBLIC_ENTRY_POINTS.has(name)).map(([name]) => name);
		expect(unguarded).toEqual([]);
	});

	it('lists only public exceptions that still exist', () => {
		for (const name of PUBLIC_ENTRY_POINTS) expect(points.has(name), name).toBe(true);
	});
});

describe('every admin mutation', () => {
	const files = [...routeFiles('src/routes/admin'), ...routeFiles('src/routes/api/admin')];
	const mutations = new Map(files.flatMap((file) => [...adminMutations(file, readFileSync(file, 'utf8'))]));

	it('is found: actions, API writes and the audited downloads', () => {
		expect(mutations.size).toBeGreaterThan(20);
		for (const name of AUDITED_DOWNLOADS) expect(mutations.has(name), name).toBe(true);
	});

	it('hands the admin that requireAdmin returned to the domain, which writes the audit row', () => {
		const silent = [...mutations].filter(([name, handed]) => !handed && !PUBLIC_ENTRY_POINTS.has(name)).map(([name]) => name);
		expect(silent).toEqual([]);
	});
});

describe('every members’ entry point', () => {
	const files = routeFiles('src/routes/(members)');
	const points = new Map(files.flatMap((file) => [...entryPoints(file, readFileSync(file, 'utf8'), MEMBER_GUARDS)]));

	it('has route files to check', () => {
		expect(points.size).toBeGreaterThan(2);
	});

	it('calls requireUser (or requireAdmin) as its first statement', () => {
		expect([...points].filter(([, guarded]) => !guarded).map(([name]) => name)).toEqual([]);
	});
});
