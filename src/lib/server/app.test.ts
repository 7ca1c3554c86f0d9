import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appDeps, useDepsForTests } from './app';
import { loadConfig } from './config';

const stripe = {
	STRIPE_SECRET_KEY: 'sk_test_x',
	STRIPE_WEBHOOK_SECRET: 'whsec_x',
	STRIPE_PRICE_ID: 'price_x'
};
const configWith = (env: Record<string, string>) =>
	loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atelier-app-')), ...stripe, ...env });

describe('composition root', () => {
	afterEach(() => useDepsForTests(null));

	it('makes a Stripe client in platform mode, and none in showcase mode whatever STRIPE_* says', () => {
		useDepsForTests({ config: configWith({}) });
		expect(appDeps().payments).not.toBeNull();
		useDepsForTests({ config: configWith({ SITE_MODE: 'showcase' }) });
		expect(appDeps().payments).toBeNull();
	});
});
