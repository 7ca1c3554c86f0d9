/**
 * The composition root: the application's services, each built once on first use (opening nothing while
 * SvelteKit merely imports modules at build time). Every domain's `index.ts` binds its service functions to
 * these, so that routes call `leads.submit(…)` and never hold the database, the storage or the mail transport.
 * Service functions take their dependencies explicitly: tests call them with their own, or — to drive a route
 * handler directly — replace these with `useDepsForTests`.
 */
import { config, type Config } from './config';
import { db, type Db } from './db';
import type { MailDeps } from './mail/send';
import { transport } from './mail';
import { createPayments, type Payments } from './payments';
import { storage, type Storage } from './storage';

export interface AppDeps {
	config: Config;
	db: Db;
	storage: Storage;
	mail: MailDeps;
	/** null when payments are off. */
	payments: Payments | null;
}

let replacement: Partial<AppDeps> | null = null;
let payments: { for: Config; value: Payments | null } | null = null;

/** The Stripe client for a configuration, made once per configuration (tests change it); none in showcase mode. */
function paymentsFor(config: Config): Payments | null {
	// Showcase mode has no payments: no Stripe client is made, whatever STRIPE_* says.
	if (config.siteMode === 'showcase') return null;
	if (payments?.for !== config) payments = { for: config, value: createPayments(config.stripe) };
	return payments.value;
}

export function appDeps(): AppDeps {
	const chosenDb = replacement?.db ?? db;
	const chosenConfig = replacement?.config ?? config;
	return {
		config: chosenConfig,
		db: chosenDb,
		storage: replacement?.storage ?? storage,
		mail: replacement?.mail ?? { db: chosenDb, transport, from: chosenConfig.mailFrom },
		payments: replacement?.payments !== undefined ? replacement.payments : paymentsFor(chosenConfig)
	};
}

/**
 * What the stored photos are read with (the image proxy's answer, src/lib/server/images/entry-answer.ts): asked at
 * every answer, so neither the mail's dependencies nor the payments are looked up for it.
 */
export function photoDeps(): Pick<AppDeps, 'config' | 'db' | 'storage'> {
	return {
		config: replacement?.config ?? config,
		db: replacement?.db ?? db,
		storage: replacement?.storage ?? storage
	};
}

/**
 * What a public form's intake needs, whichever form (a lead, a candidature): where it is written, how the admin is
 * told, and the keys of its anti-abuse token (abuse/form-token).
 */
export function formIntakeDeps() {
	const { db, mail, config } = appDeps();
	return {
		db,
		mail,
		adminEmail: config.adminEmail,
		signingSecret: config.signingSecret,
		formMinFillMs: config.waits.formMinFillMs
	};
}

/** For tests that call a route handler: the services it will use, until reset with `null`. */
export function useDepsForTests(deps: Partial<AppDeps> | null): void {
	replacement = deps;
}
