/**
 * The `page` of every e2e test records console errors, uncaught exceptions and CSP violations, and the test
 * fails if any occurred.
 */
import { test as base, expect } from '@playwright/test';

export const test = base.extend<{ pageProblems: string[] }>({
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
