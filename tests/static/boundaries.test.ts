/**
 * The safe way is the only way, whatever the file or the import (issue « The house, part 4 », point 1). The rules
 * are scripts/boundaries.js's (ESLint applies the same ones while one edits); this reads every code file of src/ —
 * `.ts`, `.js`, `.svelte`, `.mjs`… — and every form of import (module-references.ts), and plants the ways around
 * them that once passed every check: each must be refused.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	CODE_FILE,
	RUN_TIME_MODULES,
	TEST_FILE,
	aliasProblems,
	refusals,
	resolveSpecifier
} from '../../scripts/boundaries.js';
import { moduleReferences, root, sourceFiles } from './module-references';

/** What `file` (repository-relative) may not do, given its text. */
export function boundaryProblems(file: string, text: string): string[] {
	return moduleReferences(file, text).flatMap((reference) => {
		if (reference.target === null)
			return file in RUN_TIME_MODULES
				? []
				: [`${file}: a module named at run time (${reference.form}) — name it in full, so that its rules can be read.`];
		if (reference.form === 'require' && !reference.target.startsWith('src/'))
			return [`${file}: require() in an ES module app — import it.`];
		return refusals(file, reference.target, reference.names, reference.typeOnly).map((m) => `${file}: ${m}`);
	});
}

const every = () => sourceFiles('src').map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

describe('the planted ways around the guards are refused', () => {
	it('a plain .js file re-exporting proofOf under another name', () => {
		const planted = `export { proofOf as vouch } from '../auth/proof';\n`;
		const found = boundaryProblems('src/lib/server/leads/vouch.js', planted);
		expect(found).toEqual(
			expect.arrayContaining([
				expect.stringContaining('inner file of the auth domain'),
				expect.stringContaining('proofOf from src/lib/server/auth/proof')
			])
		);
		// …and the route that would call it, as a .js route: refused whatever it imports the planted file as.
		const route = `import { vouch } from '$lib/server/leads/vouch.js';\nexport const load = () => vouch;\n`;
		expect(boundaryProblems('src/routes/(auth)/planted/+page.server.js', route)).toEqual([
			expect.stringContaining('src/lib/server/leads/vouch.js is an inner file of the leads domain')
		]);
	});

	it('a template-literal import() and import.meta.glob of the proof', () => {
		const template = 'export const p = () => import(`../auth/proof`);\n';
		expect(boundaryProblems('src/lib/server/leads/planted.ts', template)).toEqual(
			expect.arrayContaining([expect.stringContaining('src/lib/server/auth/proof: a proof opens a session')])
		);
		const computed = 'const name = "proof";\nexport const p = () => import(`../auth/${name}`);\n';
		expect(boundaryProblems('src/lib/server/leads/planted.ts', computed)).toEqual([
			expect.stringContaining('a module named at run time (import())')
		]);
		const glob = `export const p = import.meta.glob('../auth/proof.ts', { eager: true });\n`;
		expect(boundaryProblems('src/lib/server/leads/planted.ts', glob)).toEqual(
			expect.arrayContaining([expect.stringContaining('src/lib/server/auth/proof: a proof opens a session')])
		);
		const wide = `export const p = import.meta.glob(['/src/lib/server/auth/*.ts']);\n`;
		expect(boundaryProblems('src/routes/planted/+page.server.ts', wide).length).toBeGreaterThan(10);
		const required = `const { proofOf } = require('../auth/proof');\nexport const p = proofOf;\n`;
		expect(boundaryProblems('src/lib/server/leads/planted.cjs', required)).toEqual(
			expect.arrayContaining([expect.stringContaining('src/lib/server/auth/proof: a proof opens a session')])
		);
	});

	it('a file of http/ that writes a session row itself', () => {
		const planted = `import { insertSession } from '../auth/queries/session-rows';\nexport const open = insertSession;\n`;
		expect(boundaryProblems('src/lib/server/http/planted.ts', planted)).toEqual([
			expect.stringContaining('inner file of the auth domain'),
			expect.stringContaining('src/lib/server/auth/queries/session-rows: a session row is written by auth/session-open.ts only')
		]);
		// Inside auth too: only session-open.ts writes the row.
		expect(boundaryProblems('src/lib/server/auth/recovery.ts', planted)).toEqual([
			expect.stringContaining('a session row is written by auth/session-open.ts only')
		]);
		// src/server/ follows the same rule.
		const entry = `import * as queries from '../lib/server/auth/queries';\nexport const q = queries;\n`;
		expect(boundaryProblems('src/server/planted.ts', entry)).toEqual([expect.stringContaining('inner file of the auth domain')]);
	});

	it('the primitives: the password library and the recovery codes, outside the file that spends an attempt', () => {
		const argon = `import { verify as same } from '@node-rs/argon2';\nexport const check = same;\n`;
		expect(boundaryProblems('src/lib/server/auth/profile.ts', argon)).toEqual([
			expect.stringContaining('@node-rs/argon2: the password library is auth/password.ts’s')
		]);
		const codes = `import * as codes from './queries/recovery-codes';\nexport const c = codes;\n`;
		expect(boundaryProblems('src/lib/server/auth/recovery.ts', codes)).toEqual([
			expect.stringContaining('a recovery code is spent inside spendAttempt')
		]);
		// The hash of a recovery code is no export at all: module-private to two-factor.ts.
		const totp = readFileSync(path.join(root, 'src/lib/server/auth/totp.ts'), 'utf8');
		const twoFactor = readFileSync(path.join(root, 'src/lib/server/auth/two-factor.ts'), 'utf8');
		expect(totp).not.toMatch(/recoveryCodeHash/);
		expect(twoFactor).toMatch(/^const recoveryCodeHash = /m);
	});

	it('their owners, and a domain’s own files, are not refused', () => {
		expect(boundaryProblems('src/lib/server/auth/session-open.ts', `import { insertSession } from './queries/session-rows';`)).toEqual([]);
		expect(boundaryProblems('src/lib/server/auth/password.ts', `import { hash, verify } from '@node-rs/argon2';`)).toEqual([]);
		expect(boundaryProblems('src/routes/x/+page.server.ts', `import * as leads from '$lib/server/leads';`)).toEqual([]);
		// Types are erased at build: a type from an inner file crosses nothing.
		expect(boundaryProblems('src/lib/server/http/x.ts', `import type { SessionUser } from '../auth/session';`)).toEqual([]);
	});
});

describe('the shapes of « The house, part 5 »: what the bundler resolves is what is judged', () => {
	it('an alias beyond $lib and $content, in svelte.config.js or vite.config.ts, is refused; the real ones pass', () => {
		const svelte = readFileSync(path.join(root, 'svelte.config.js'), 'utf8');
		const vite = readFileSync(path.join(root, 'vite.config.ts'), 'utf8');
		expect(aliasProblems(svelte, vite)).toEqual([]);
		const widened = svelte.replace("alias: { $content: 'src/content' }", "alias: { $content: 'src/content', $auth: 'src/lib/server/auth' }");
		expect(aliasProblems(widened, vite)).toEqual([expect.stringContaining('the alias $auth')]);
		const viteAlias = vite.replace('plugins:', "resolve: { alias: { $auth: '/src/lib/server/auth' } },\n\tplugins:");
		expect(aliasProblems(svelte, viteAlias)).toEqual([expect.stringContaining('resolve.alias')]);
		// $content resolves like any path, so the rules judge what it reaches.
		expect(boundaryProblems('src/lib/server/leads/planted.ts', `import { x } from '$content/agency/seed';`)).toEqual([]);
	});

	it('a symbolic link is judged by what it points at, and src/ holds none', () => {
		const probe = path.join('.cache', 'boundaries-probe');
		rmSync(path.join(root, probe), { recursive: true, force: true });
		mkdirSync(path.join(root, probe), { recursive: true });
		try {
			symlinkSync(path.join(root, 'src/lib/server/auth/queries/session-rows.ts'), path.join(root, probe, 'rows.ts'));
			const exists = (file: string) => {
				try {
					return lstatSync(file) !== null;
				} catch {
					return false;
				}
			};
			const target = resolveSpecifier(root, `${probe}/planted.ts`, './rows', exists);
			expect(target).toBe('src/lib/server/auth/queries/session-rows.ts');
			expect(refusals('src/lib/server/http/planted.ts', target, ['insertSession'])).toEqual([
				expect.stringContaining('inner file of the auth domain'),
				expect.stringContaining('a session row is written by auth/session-open.ts only')
			]);
		} finally {
			rmSync(path.join(root, probe), { recursive: true, force: true });
		}
		const links = (dir: string): string[] =>
			readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
				entry.isSymbolicLink()
					? [`${dir}/${entry.name}`]
					: entry.isDirectory()
						? links(`${dir}/${entry.name}`)
						: []
			);
		expect(links('src')).toEqual([]);
	});

	it('a glob’s base is applied', () => {
		const based = `export const p = import.meta.glob('./proof.ts', { base: '../auth', eager: true });\n`;
		expect(boundaryProblems('src/lib/server/leads/planted.ts', based)).toEqual(
			expect.arrayContaining([expect.stringContaining('src/lib/server/auth/proof: a proof opens a session')])
		);
		const computed = `const b = '../auth';\nexport const p = import.meta.glob('./proof.ts', { base: b });\n`;
		expect(boundaryProblems('src/lib/server/leads/planted.ts', computed)).toEqual([
			expect.stringContaining('a module named at run time (import.meta.glob)')
		]);
	});

	it('node:module, under any name or through a namespace, is refused: createRequire loads anything', () => {
		for (const planted of [
			`import { createRequire as loader } from 'node:module';\nexport const r = loader(import.meta.url);\n`,
			`import * as m from 'node:module';\nexport const r = m.createRequire(import.meta.url);\n`,
			`import m from 'module';\nexport const r = m.createRequire(import.meta.url);\n`
		])
			expect(boundaryProblems('src/lib/server/auth/profile.ts', planted), planted).toEqual([
				expect.stringContaining('createRequire loads any module under any name')
			]);
	});

	it('SQL in an infrastructure folder, and a route reaching the database by any path, are refused', () => {
		const sessionRow = `import { sessions } from '../db/schema';\nimport { sql } from 'drizzle-orm';\nexport const open = (db: any, id: string) => db.insert(sessions).values({ id, userId: sql\`gen_random_uuid()\` });\n`;
		const found = boundaryProblems('src/lib/server/http/planted.ts', sessionRow);
		expect(found).toHaveLength(2);
		expect(found).toEqual(
			expect.arrayContaining([
				expect.stringContaining('src/lib/server/db/schema.ts: SQL is written in a domain'),
				expect.stringContaining('drizzle-orm: SQL is written in a domain')
			])
		);
		const route = `import { database } from '$lib/../lib/server/db';\nexport const load = () => database;\n`;
		expect(boundaryProblems('src/routes/planted/+page.server.ts', route)).toEqual([
			expect.stringContaining('routes call domains')
		]);
		// Types of the tables are free to all; the domain's own queries.ts holds its SQL.
		expect(boundaryProblems('src/lib/server/http/x.ts', `import type { Lead } from '../db/schema';`)).toEqual([]);
		expect(boundaryProblems('src/lib/server/leads/queries.ts', `import { leads } from '../db/schema';`)).toEqual([]);
	});

	it('the guarded files are guarded whole: any name, any form; their types are free', () => {
		const other = `import { assertProof } from '../auth/proof';\nexport const x = assertProof;\n`;
		expect(boundaryProblems('src/lib/server/leads/planted.ts', other)).toEqual(
			expect.arrayContaining([expect.stringContaining('assertProof from src/lib/server/auth/proof')])
		);
		const step = `import { stepAt } from './totp';\nexport const x = stepAt;\n`;
		expect(boundaryProblems('src/lib/server/auth/profile.ts', step)).toEqual([
			expect.stringContaining('stepAt from src/lib/server/auth/totp')
		]);
		const open = `import { createSession as start } from './session-open';\nexport const x = start;\n`;
		expect(boundaryProblems('src/lib/server/auth/recovery.ts', open)).toEqual([
			expect.stringContaining('a session is opened from a proof only')
		]);
		expect(boundaryProblems('src/lib/server/auth/recovery.ts', `import type { SignInProof } from './proof';`)).toEqual([]);
	});
});

describe('the whole of src/', () => {
	it('every file, whatever its extension, keeps to the rules', () => {
		const files = every();
		expect(files.some(({ file }) => file.endsWith('.js'))).toBe(true);
		expect(files.some(({ file }) => file.endsWith('.svelte'))).toBe(true);
		expect(files.flatMap(({ file, text }) => boundaryProblems(file, text))).toEqual([]);
	});

	it('src/ holds no file the walkers would not read: code in a known extension, or data', () => {
		const DATA = /\.(md|txt|css|html|json|jpe?g|webp|png|svg|woff2?)$/;
		const all = (dir: string): string[] =>
			readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
				entry.isDirectory() ? all(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`]
			);
		expect(all('src').filter((file) => !CODE_FILE.test(file) && !TEST_FILE.test(file) && !DATA.test(file))).toEqual([]);
	});
});
