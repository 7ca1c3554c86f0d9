/**
 * The guards hold by structure, not by names (issue « The house, part 3 », point 1): each planted bypass fails the
 * project's own ESLint configuration — an aliased or namespaced import of what opens a session or checks a secret,
 * a route reaching into a domain's inner file — and a secret check's lane given to `countRequest` fails the types
 * (the `@ts-expect-error` below: `npm run check` fails if it ever type-checks).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { INFRASTRUCTURE } from '../../scripts/boundaries.js';
import { describe, expect, it } from 'vitest';
import { countRequest, rules } from '../../src/lib/server/abuse/attempts';
import type { DbOrTx } from '../../src/lib/server/db';

const root = path.join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

/** The messages ESLint gives `code` as if it were the file at `file` (repository-relative). */
async function lint(file: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
	return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('guards by structure', () => {
	it('a route that imports proofOf under another name, or the module whole, is refused', async () => {
		const route = 'src/routes/(auth)/planted/+page.server.ts';
		const aliased = `import { proofOf as vouchFor } from '$lib/server/auth/proof';\nexport const x = vouchFor;\n`;
		expect(await lint(route, aliased)).toEqual(
			expect.arrayContaining([expect.stringMatching(/^atelier\/boundaries: proofOf from src\/lib\/server\/auth\/proof/)])
		);
		const whole = `import * as p from '$lib/server/auth/proof';\nexport const x = p;\n`;
		expect((await lint(route, whole)).some((m) => /^atelier\/boundaries: .*a proof opens a session/.test(m))).toBe(true);
		const dynamic = `export const x = () => import('$lib/server/auth/proof');\n`;
		expect((await lint('src/lib/server/leads/planted.ts', dynamic)).some((m) => m.includes('a proof opens a session'))).toBe(true);
	});

	it('the five probes of « The house, part 4 » fail npm run lint too, whatever the file and the import', async () => {
		const refused = async (file: string, code: string, pattern: RegExp) =>
			expect((await lint(file, code)).some((m) => m.startsWith('atelier/boundaries') && pattern.test(m)), `${file}: ${code}`).toBe(true);
		await refused('src/lib/server/leads/vouch.js', `export { proofOf as vouch } from '../auth/proof';\n`, /proofOf from/);
		await refused('src/routes/planted/+page.server.js', `import { vouch } from '$lib/server/leads/vouch.js';\nexport const load = () => vouch;\n`, /inner file of the leads domain/);
		await refused('src/lib/server/leads/planted.ts', 'export const p = () => import(`../auth/proof`);\n', /a proof opens a session/);
		await refused('src/lib/server/leads/planted.ts', 'const n = "proof";\nexport const p = () => import(`../auth/${n}`);\n', /named at run time/);
		await refused('src/lib/server/leads/planted.ts', `export const p = import.meta.glob('../auth/proof.ts');\n`, /a proof opens a session/);
		await refused('src/lib/server/http/planted.ts', `import { insertSession } from '../auth/queries/session-rows';\nexport const x = insertSession;\n`, /session row/);
		await refused('src/lib/server/auth/profile.ts', `import { verify } from '@node-rs/argon2';\nexport const x = verify;\n`, /password library/);
		await refused('src/lib/server/auth/recovery.ts', `import { spendRecoveryCode } from './queries/recovery-codes';\nexport const x = spendRecoveryCode;\n`, /recovery code/);
	});

	it('a secret check that imports verifyPassword or matchingStep under another name, outside its owner, is refused', async () => {
		const planted = `import { verifyPassword as matches } from './password-check';\nexport const x = matches;\n`;
		expect(await lint('src/lib/server/auth/reauthentication.ts', planted)).toEqual(
			expect.arrayContaining([expect.stringContaining('verifyPassword from src/lib/server/auth/password-check')])
		);
		const code = `import { matchingStep as step } from '../auth/totp';\nexport const x = step;\n`;
		expect(await lint('src/lib/server/memberships/planted.ts', code)).toEqual(
			expect.arrayContaining([expect.stringContaining('matchingStep from src/lib/server/auth/totp')])
		);
		// Their owners import them: nothing to say there.
		expect(
			(await lint('src/lib/server/auth/sign-in.ts', `import { verifyPassword } from './password-check';\nexport const v = verifyPassword;\n`)).filter(
				(m) => m.startsWith('atelier/')
			)
		).toEqual([]);
	});

	it('a route that reaches into a domain’s inner file, by $lib or by a relative path, is refused', async () => {
		const route = 'src/routes/admin/planted/+page.server.ts';
		const deep = `import { submit } from '$lib/server/leads/service';\nexport const x = submit;\n`;
		expect((await lint(route, deep)).some((m) => m.includes('through its index.ts'))).toBe(true);
		const relative = `import { x } from '../../../lib/server/auth/session';\nexport const y = x;\n`;
		expect((await lint(route, relative)).some((m) => m.includes('never by a relative path'))).toBe(true);
		// Its index.ts, and the shared adapters, are how a route reaches it.
		const allowed = `import * as leads from '$lib/server/leads';\nimport { requireAdmin } from '$lib/server/http/guards';\nexport const x = [leads, requireAdmin];\n`;
		expect((await lint(route, allowed)).filter((m) => m.startsWith('no-restricted-imports'))).toEqual([]);
	});

	it('the ground (configuration, log, wiring) reaches no domain’s inner file; config.ts imports no domain', async () => {
		const planted = `import { isRecipient } from './backup/encryption';\nexport const x = isRecipient;\n`;
		expect((await lint('src/lib/server/config.ts', planted)).some((m) => m.includes('never its inner files'))).toBe(
			true
		);
		const { readFileSync } = await import('node:fs');
		const config = readFileSync(path.join(root, 'src/lib/server/config.ts'), 'utf8');
		const domains = [...config.matchAll(/from '\.\/([\w-]+)\//g)].map((m) => m[1]);
		expect(domains.filter((folder) => !INFRASTRUCTURE.includes(folder!))).toEqual(
			[]
		);
	});

	it('countRequest refuses a secret check’s lane by its type', () => {
		// Never run: the types are what is tested (npm run check).
		const planted = (db: DbOrTx) =>
			// @ts-expect-error a secret check's rule (here a known browser's password budget) is not a request to count
			countRequest(db, rules.signInDevice, 'nonce');
		expect(typeof planted).toBe('function');
	});
	it('code made from a string, and the global object by its other name, fail npm run lint (« The house, part 5 »)', async () => {
		const file = 'src/lib/server/leads/planted.ts';
		const has = async (code: string, rule: string) =>
			expect((await lint(file, code)).some((m) => m.startsWith(`${rule}:`)), code).toBe(true);
		await has(`export const load = new Function('m', 'return import(m)');\n`, 'no-new-func');
		await has(`export const load = (m: string) => eval('import(' + JSON.stringify(m) + ')');\n`, 'no-eval');
		await has(`export const later = () => setTimeout('import("x")', 0);\n`, 'no-implied-eval');
		await has(`export const g = global;\n`, 'no-restricted-globals');
		// The control: the same file without them is clean.
		expect(await lint(file, `export const load = (m: string) => m.length;\n`)).toEqual([]);
	});
});
