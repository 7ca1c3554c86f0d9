/**
 * The `page` of every e2e test records console errors, uncaught exceptions and CSP violations, and the test
 * fails if any occurred. A failing test also shows what the shared server logged while it ran: the servers' logs
 * go to files (support/server.ts), so a passing run's output is the list of results and nothing else.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { test as base, expect } from '@playwright/test';

const sizeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

/** The bytes a file gained since `from` (at most the last 64 KB of them). */
function grownPart(file: string, from: number): string {
	const end = sizeOf(file);
	const start = Math.max(from, end - 64 * 1024);
	if (end <= start) return '';
	const buffer = Buffer.alloc(end - start);
	const fd = openSync(file, 'r');
	try {
		readSync(fd, buffer, 0, buffer.length, start);
	} finally {
		closeSync(fd);
	}
	return buffer.toString('utf8');
}

export const test = base.extend<{ pageProblems: string[]; serverLogOnFailure: void }>({
	serverLogOnFailure: [
		// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for from its first parameter
		async ({}, use, testInfo) => {
			const file = process.env.E2E_SERVER_LOG;
			const from = file ? sizeOf(file) : 0;
			await use();
			if (!file || testInfo.status === testInfo.expectedStatus) return;
			const logged = grownPart(file, from);
			if (logged)
				await testInfo.attach('server log during this test', { body: logged, contentType: 'text/plain' });
		},
		{ auto: true }
	],
	pageProblems: [
		async ({ page }, use) => {
			const problems: string[] = [];
			const withoutHash = (url: string) => url.split('#')[0];
			page.on('console', (message) => {
				if (message.type() !== 'error') return;
				// A form posted without the client (csr off) answers its failure with the page itself, at its status
				// (400, 429…): Chrome reports the document's status; that is the form working, not a broken resource.
				const ownDocument = withoutHash(message.location().url) === withoutHash(page.url());
				if (
					ownDocument &&
					/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
				)
					return;
				problems.push(`console: ${message.text()}`);
			});
			page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
			await page.addInitScript(() => {
				document.addEventListener('securitypolicyviolation', (event) => {
					console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
				});
			});
			await use(problems);
			expect(problems, 'console errors, exceptions or CSP violations').toEqual([]);
		},
		{ auto: true }
	]
});

/** Drops the console notes a test provoked on purpose (say, the browser reporting a 4xx it was meant to get). */
export function expectConsoleNotes(problems: string[], pattern: RegExp) {
	problems.splice(0, problems.length, ...problems.filter((p) => !pattern.test(p)));
}

export { expect };
