/**
 * "Every way into a session passes the account's factors" (issue "Trust, part 2", point 4): like the route-guard
 * walker, this reads every file under src/routes and src/lib and fails when a session is opened any other way than
 * `enterAccount` (which sends an account with a second factor to /login/code) or, at the code step only,
 * `enterAfterSecondFactor`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return /\.(ts|svelte)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
	});
}

/** What opens a session, and the one file allowed to call it. */
const SESSION_OPENERS: [RegExp, string][] = [
	[/\bcreateSession\(/, 'src/lib/server/auth/proof.ts'],
	[/\bauth\.openSession\(/, 'src/lib/server/http/session-cookie.ts'],
	[/\bproofOf\(/, 'src/lib/server/auth/index.ts'],
	[/\bopenSessionFrom\(/, 'src/lib/server/auth/index.ts'],
	[/\bsetSessionCookie\(/, 'src/lib/server/http/session-cookie.ts']
];
const CODE_STEP = 'src/routes/(auth)/login/code/+page.server.ts';

export function sessionEntries(file: string, text: string): string[] {
	const found: string[] = [];
	for (const [pattern, owner] of SESSION_OPENERS) {
		if (file === owner || file === 'src/lib/server/auth/session.ts' || file === 'src/lib/server/auth/proof.ts')
			continue;
		if (pattern.test(text)) found.push(`${file} opens a session with ${pattern.source}`);
	}
	if (/\benterAfterSecondFactor\(/.test(text) && file !== CODE_STEP && !file.endsWith('session-cookie.ts'))
		found.push(`${file} opens a session without a verified code`);
	return found;
}

describe('ways into a session', () => {
	it('the walker finds a route that opens a session itself', () => {
		const bypass = `await auth.openSession(user.id); setSessionCookie(event.cookies, origin, token, at);`;
		expect(sessionEntries('src/routes/(auth)/mot-de-passe/[token]/+page.server.ts', bypass)).toHaveLength(2);
		expect(
			sessionEntries('src/routes/(auth)/register/+page.server.ts', 'await enterAfterSecondFactor(event, x);')
		).toHaveLength(1);
	});

	it('every route enters an account through enterAccount, or the code step through its verified code', () => {
		const files = [...sourceFiles('src/routes'), ...sourceFiles('src/lib')];
		expect(files.flatMap((file) => sessionEntries(file, readFileSync(file, 'utf8')))).toEqual([]);
		const entering = files.filter((file) => /\benterAccount\(/.test(readFileSync(file, 'utf8')));
		// Sign-in, registration, first admin, the reset and welcome link: all of them, through the one function.
		expect(entering.filter((f) => f.startsWith('src/routes')).sort()).toEqual([
			'src/routes/(auth)/login/+page.server.ts',
			'src/routes/(auth)/mot-de-passe/[token]/+page.server.ts',
			'src/routes/(auth)/register/+page.server.ts',
			'src/routes/(auth)/setup-admin/+page.server.ts'
		]);
	});
});

/**
 * The second line behind ESLint's guarded imports (eslint.config.js): a name that opens a session or checks a secret
 * imported — under its own name or another (`{ proofOf as vouchFor }`), or the module whole — by a file that is not
 * its owner. Read from the imports, so that an alias does not escape as it would a search for calls.
 */
const GUARDED: { module: RegExp; names: string[]; owners: string[] }[] = [
	{ module: /auth\/proof$/, names: ['proofOf', 'openSessionFrom'], owners: ['src/lib/server/auth/index.ts'] },
	{ module: /auth\/password$/, names: ['verifyPassword'], owners: ['src/lib/server/auth/sign-in.ts'] },
	{ module: /auth\/totp$/, names: ['matchingStep'], owners: ['src/lib/server/auth/two-factor.ts'] }
];

export function guardedImports(file: string, text: string): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	for (const statement of source.statements) {
		if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
		const from = statement.moduleSpecifier.text;
		// Where it leads: `$lib/…` and relative paths, resolved from the file.
		const target = from.startsWith('$lib/')
			? `src/lib/${from.slice('$lib/'.length)}`
			: from.startsWith('.')
				? path.join(path.dirname(file), from)
				: from;
		const bindings = statement.importClause?.namedBindings;
		for (const guard of GUARDED) {
			if (!guard.module.test(target.replace(/\.(ts|js)$/, '')) || guard.owners.includes(file)) continue;
			if (bindings && ts.isNamespaceImport(bindings)) found.push(`${file} imports ${from} whole`);
			if (bindings && ts.isNamedImports(bindings))
				for (const element of bindings.elements) {
					const name = (element.propertyName ?? element.name).text;
					if (guard.names.includes(name)) found.push(`${file} imports ${name} from ${from}`);
				}
		}
	}
	return found;
}

describe('guarded names, read from the imports', () => {
	it('finds an aliased proofOf, an aliased verifyPassword and a namespace import (the plants)', () => {
		expect(
			guardedImports('src/routes/x/+page.server.ts', `import { proofOf as vouchFor } from '$lib/server/auth/proof';`)
		).toEqual(['src/routes/x/+page.server.ts imports proofOf from $lib/server/auth/proof']);
		expect(
			guardedImports('src/lib/server/auth/profile.ts', `import { verifyPassword as matches } from './password';`)
		).toHaveLength(1);
		expect(guardedImports('src/lib/server/leads/x.ts', `import * as t from '../auth/totp';`)).toHaveLength(1);
		expect(guardedImports('src/lib/server/auth/sign-in.ts', `import { verifyPassword } from './password';`)).toEqual([]);
	});

	it('no file imports them but their owners', () => {
		const files = [...sourceFiles('src/routes'), ...sourceFiles('src/lib'), ...sourceFiles('src/server')];
		expect(files.flatMap((file) => guardedImports(file, readFileSync(file, 'utf8')))).toEqual([]);
	});
});
