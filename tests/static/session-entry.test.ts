/**
 * "Every way into a session passes the account's factors" (issue "Trust, part 2", point 4): like the route-guard
 * walker, this reads every file under src/routes and src/lib (whatever its extension: module-references.ts) and fails when a session is opened any other way than
 * `enterAccount` (which sends an account with a second factor to /login/code) or, at the code step only,
 * `enterAfterSecondFactor`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, sourceFiles } from './module-references';
import { describe, expect, it } from 'vitest';


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
		if (file === owner || file === 'src/lib/server/auth/session-open.ts' || file === 'src/lib/server/auth/proof.ts')
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
		expect(files.flatMap((file) => sessionEntries(file, readFileSync(path.join(root, file), 'utf8')))).toEqual([]);
		const entering = files.filter((file) => /\benter(Account|WithProof)\(/.test(readFileSync(path.join(root, file), 'utf8')));
		// Sign-in, registration, first admin, the reset and welcome link: all of them, through the one function.
		expect(entering.filter((f) => f.startsWith('src/routes')).sort()).toEqual([
			'src/routes/(auth)/login/+page.server.ts',
			'src/routes/(auth)/mot-de-passe/[token]/+page.server.ts',
			'src/routes/(auth)/register/+page.server.ts',
			'src/routes/(auth)/setup-admin/+page.server.ts'
		]);
	});
});
