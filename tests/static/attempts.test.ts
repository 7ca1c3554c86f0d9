/**
 * "An attempt is spent before it is checked" (issue "Trust, part 2", point 1), as a rule of the code:
 * - nowhere does a file read a counter (`check`, `closedFor`, `waitFor`, `isClosed`) and later count (`increment`,
 *   `hit`, `take`) for the same rule: the check-then-count race that let 300 parallel codes through;
 * - every password verification and every code verification runs inside a `spendAttempt(…)` call, which reserves
 *   the attempt in its lanes first (src/lib/server/abuse/attempts.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root, scriptOf, sourceFiles } from './module-references';

const READS = new Set(['check', 'closedFor', 'waitFor', 'isClosed']);
const COUNTS = new Set(['increment', 'hit', 'take', 'countRequest']);

const calleeName = (call: ts.CallExpression) =>
	ts.isPropertyAccessExpression(call.expression)
		? call.expression.name.text
		: ts.isIdentifier(call.expression)
			? call.expression.text
			: '';

/** `check(db, rule, subject)` then `increment(db, rule, subject)` in one file: each pair, as text. */
export function checkThenCount(file: string, text: string): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const read = new Map<string, string>();
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isCallExpression(node) && node.arguments.length >= 2) {
			const name = calleeName(node);
			const rule = node.arguments[1]!.getText(source);
			if (READS.has(name)) read.set(rule, name);
			else if (COUNTS.has(name) && read.has(rule)) found.push(`${file}: ${read.get(rule)} then ${name} of ${rule}`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** Calls of `verifiers` that are not inside the arguments of a `spendAttempt(…)` call. */
export function verifiedOutsideAttempts(file: string, text: string, verifiers: Set<string>): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const visit = (node: ts.Node, inside: boolean) => {
		if (ts.isCallExpression(node)) {
			const name = calleeName(node);
			if (verifiers.has(name) && !inside) {
				const { line } = source.getLineAndCharacterOfPosition(node.getStart());
				found.push(`${file}:${line + 1}: ${name} outside spendAttempt`);
			}
			if (name === 'spendAttempt') {
				ts.forEachChild(node, (child) => visit(child, true));
				return;
			}
		}
		ts.forEachChild(node, (child) => visit(child, inside));
	};
	visit(source, false);
	return found;
}

// Every code file, `.js` and `.svelte` included (a component's script is read as TypeScript).
const files = sourceFiles('src').map((file) => ({ file, text: scriptOf(file, readFileSync(path.join(root, file), 'utf8')) }));

describe('secret checks', () => {
	it('the detectors find what they are for', () => {
		const racy = `await rateLimit.check(db, secondFactorLimit, userId);
			if (!ok) await rateLimit.increment(db, secondFactorLimit, userId);`;
		expect(checkThenCount('racy.ts', racy)).toHaveLength(1);
		expect(checkThenCount('fine.ts', 'await rateLimit.hit(db, limits.a, x);')).toEqual([]);
		const bare = 'const ok = await verifyPassword(user.passwordHash, password);';
		expect(verifiedOutsideAttempts('bare.ts', bare, new Set(['verifyPassword']))).toHaveLength(1);
		const spent = `await spendAttempt(db, lanes, async () => { if (!(await verifyPassword(h, p))) throw wrong(); });`;
		expect(verifiedOutsideAttempts('spent.ts', spent, new Set(['verifyPassword']))).toEqual([]);
	});

	it('no file reads a counter and then counts for the same rule', () => {
		expect(files.flatMap(({ file, text }) => checkThenCount(file, text))).toEqual([]);
	});

	it('every password and code is verified inside spendAttempt', () => {
		// password-check.ts defines verifyPassword; totp.ts the code arithmetic.
		const verifiers = new Set(['verifyPassword', 'matchingStep', 'recoveryCodeHash']);
		const defining = new Set(['src/lib/server/auth/password-check.ts', 'src/lib/server/auth/totp.ts']);
		// recoveryCodeHash is two-factor.ts's own (module-private), called there only.
		const callers = files.filter(
			({ file, text }) => !defining.has(file) && [...verifiers].some((v) => text.includes(`${v}(`))
		);
		// The verifications live where the sign-in and the codes are decided, nowhere else.
		expect(callers.map((c) => c.file).sort()).toEqual([
			'src/lib/server/auth/sign-in.ts',
			'src/lib/server/auth/two-factor.ts'
		]);
		// Enrolment stores the hashes of new codes: making a hash is not checking one.
		const checking = new Set(['verifyPassword', 'matchingStep']);
		expect(callers.flatMap(({ file, text }) => verifiedOutsideAttempts(file, text, checking))).toEqual([]);
	});
});
