/**
 * The machine's Chromium (Playwright's own browser download cannot work here, and is not needed). When Debian's
 * headless shell is installed (`apt-get install chromium-headless-shell`: the same engine and version, without the
 * browser's windows), the suite drives it: the same 76 tests of tests/e2e/accounts and tests/e2e/experience took
 * 5.5 CPU-minutes and 178 s with it, 12.0 CPU-minutes and 376 s with the full browser (2 cores, 7 December; process
 * accounting). A test that measures text as a visitor's browser lays it out uses the full browser (`fullBrowser`):
 * the shell's fonts break a heading one line differently. CHROMIUM_PATH names another binary for every test.
 */
import { existsSync } from 'node:fs';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const args = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--no-first-run'
];

/** What every test's browser is launched with. */
export const suiteBrowser = {
	executablePath: process.env.CHROMIUM_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM),
	args
};

/** The full browser, for `test.use({ launchOptions: fullBrowser })` in a file that lays text out as visitors see it. */
export const fullBrowser = { executablePath: FULL_CHROMIUM, args };
