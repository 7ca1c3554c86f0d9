import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { TEST_BUILD_DIR } from './scripts/build-dir.mjs';
import { suiteBrowser } from './tests/e2e/support/browser';
import { useWorkersSharedServer } from './tests/e2e/support/shared-server';
import { TEST_WAITS_ENV } from './tests/e2e/support/waits';

// The server under test is the one `npm run test:e2e` built for the tests, not the build/ a running server uses.
process.env.ATELIER_BUILD_DIR ||= TEST_BUILD_DIR;
// Every server a test starts (the test build) waits what tests/e2e/support/waits.ts says, not the rules' full length.
Object.assign(process.env, TEST_WAITS_ENV);

// In a worker: the shared server that is this worker's own (tests/e2e/support/global-setup.ts starts one each).
useWorkersSharedServer();

// One worker more than the cores, at most three: a worker's browser and server wait on each other (pages, axe, IPC)
// and two workers on two cores left a third of the machine idle (accessibility.e2e.ts alone: 106 s with two, 92 s
// with four; the whole suite on 3 December, 2 cores: 260 tests in 11.5 min with three). The timing-sensitive tests
// (time traps, graceful shutdown) hold at that load; the throughput tripwire runs alone. E2E_WORKERS overrides it.
const workers = Number(process.env.E2E_WORKERS) || Math.min(3, availableParallelism() + 1);

/**
 * The files that take a worker 90 s or more (the whole suite with Playwright's JSON reporter, 2 cores, 7 December):
 * handed out before the short ones, so that the suite ends on short files spread over every worker.
 */
const LONG_FILES = [
	'**/candidatures/candidature.e2e.ts',
	'**/content/editor.e2e.ts',
	'**/courses/courses.e2e.ts',
	'**/foundation/accessibility.e2e.ts',
	'**/operations/backup.e2e.ts',
	'**/operations/upgrade-handover.e2e.ts',
	'**/showcase/site.e2e.ts'
];

export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '**/*.e2e.ts',
	globalSetup: './tests/e2e/support/global-setup.ts',
	fullyParallel: false,
	workers,
	retries: 0,
	// A journey (sign-in, pages, axe, an upload through sharp) takes 15–25 s alone and up to 32 s beside the other
	// worker on a busy 2-core machine: the limit is for a test that hangs, not one that is slow.
	timeout: 60_000,
	reporter: 'list',
	outputDir: 'test-results/e2e',
	use: {
		baseURL: process.env.E2E_BASE_URL,
		screenshot: 'only-on-failure',
		// No trace unless asked for (E2E_TRACE=retain-on-failure, or --trace on): recording one for every test, to keep
		// it only for a failure, took a sixth of the suite's CPU and wall time (accessibility, site and editor: 176 s of
		// CPU with it, 150 s without, on 4 December). A failure still prints its server's log and keeps a screenshot.
		trace: (process.env.E2E_TRACE as 'on' | 'retain-on-failure' | undefined) || 'off',
		// The machine's Chromium, its headless shell when installed (tests/e2e/support/browser.ts).
		launchOptions: suiteBrowser
	},
	projects: [
		// The upgrade journey builds three releases (three minutes alone), the upgrade from 0.5.0 builds 0.5.0: handed
		// to the workers first, they run while the others go through the rest, instead of starting last and leaving a
		// core idle (CI: issue « The house, part 4 », point 4).
		{
			name: 'upgrade',
			use: { browserName: 'chromium' },
			testMatch: ['**/operations/upgrade.e2e.ts', '**/operations/upgrade-from-archive.e2e.ts']
		},
		// Then the longest files, before the many short ones: a file is one worker's from its first test to its last,
		// and the suite's last files in alphabetical order (the showcase site's, 116 s) kept one worker busy alone for
		// 90 s while the others had finished (7 December, 3 workers).
		{ name: 'long', use: { browserName: 'chromium' }, testMatch: LONG_FILES },
		{
			name: 'chromium',
			use: { browserName: 'chromium' },
			testIgnore: [
				'**/throughput.e2e.ts',
				'**/memory.e2e.ts',
				'**/operations/upgrade.e2e.ts',
				'**/operations/upgrade-from-archive.e2e.ts',
				...LONG_FILES
			]
		},
		// The throughput tripwire measures ratios of requests per second: it runs once every other test is done, with
		// the machine to itself (a test of the other worker beside it moved its ratios by a quarter).
		{
			name: 'throughput',
			testMatch: '**/throughput.e2e.ts',
			dependencies: ['upgrade', 'long', 'chromium']
		},
		// The memory peak under mixed traffic (foundation/memory.e2e.ts), alone too: beside another test, its server
		// would get a fraction of the traffic it is measured under.
		{ name: 'memory', testMatch: '**/memory.e2e.ts', dependencies: ['throughput'] }
	]
});
