import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import svelteConfig from './svelte.config.js';

/**
 * The folders of src/lib/server that are infrastructure, shared by the domains (`pages` is the page cache, a
 * SvelteKit handle): every other folder is a domain, covered by the domain rule below from the day it is created.
 */
const INFRASTRUCTURE = new Set(['db', 'http', 'mail', 'storage', 'payments', 'pages']);
const DOMAINS = readdirSync(new URL('./src/lib/server', import.meta.url), { withFileTypes: true })
	.filter((entry) => entry.isDirectory() && !INFRASTRUCTURE.has(entry.name))
	.map((entry) => entry.name);

/** What no domain imports: configuration from SvelteKit's env, SvelteKit and superforms, another domain's SQL. */
const DOMAIN_PATTERNS = [
	{ group: ['$env/*'], message: 'Read configuration through $lib/server/config.' },
	{
		group: ['@sveltejs/kit', '@sveltejs/kit/*', 'sveltekit-superforms', 'sveltekit-superforms/*', '$app/*'],
		message:
			'Domains hold no SvelteKit or superforms code: put it in the route or in src/lib/server/http/ (CONTRIBUTING.md).'
	},
	{
		group: ['../*/queries', '$lib/server/*/queries'],
		message:
			'A domain’s SQL is its own: call the other domain’s functions, not its queries.ts (CONTRIBUTING.md).'
	}
];
/** What only a domain's queries.ts imports: the query builder and the tables (their types are free to all). */
const SQL_PATTERNS = [
	{
		group: ['drizzle-orm', 'drizzle-orm/*'],
		message: 'A domain’s SQL lives in its queries.ts (CONTRIBUTING.md).'
	},
	{
		group: ['../db/schema', '$lib/server/db/schema'],
		allowTypeImports: true,
		message:
			'A domain’s SQL lives in its queries.ts (CONTRIBUTING.md); import only types of the tables elsewhere.'
	}
];

/**
 * The names that open a session or check a secret, importable only by the file that wraps them in the rule (issue
 * « The house, part 3 », point 1): a rule on what is imported, so that an alias (`import { proofOf as vouchFor }`)
 * or a namespace (`import * as p`) does not escape it as a name-matching test would.
 */
const GUARDED_IMPORTS = [
	{
		module: 'src/lib/server/auth/proof',
		names: ['proofOf', 'openSessionFrom', 'assertProof'],
		owners: ['src/lib/server/auth/index.ts'],
		why: 'a proof opens a session: only auth/index.ts makes one, after the account’s factors'
	},
	{
		module: 'src/lib/server/auth/session',
		names: ['createSession'],
		// index.ts holds the session module whole (`* as session`) to wire its other functions; the static test
		// (tests/static/session-entry.test.ts) allows the call in proof.ts only.
		owners: ['src/lib/server/auth/proof.ts', 'src/lib/server/auth/index.ts'],
		why: 'a session is opened from a proof only (auth/proof.ts)'
	},
	{
		module: 'src/lib/server/auth/password',
		names: ['verifyPassword'],
		owners: ['src/lib/server/auth/sign-in.ts'],
		why: 'a password is checked inside spendAttempt (auth/sign-in.ts): an attempt is spent before it is checked'
	},
	{
		module: 'src/lib/server/auth/totp',
		names: ['matchingStep'],
		owners: ['src/lib/server/auth/two-factor.ts'],
		why: 'a code is checked inside spendAttempt (auth/two-factor.ts): an attempt is spent before it is checked'
	}
];

/** The repository-relative module an import names (`$lib/…` or a relative path), without its extension. */
function importedModule(source, filename) {
	const root = path.dirname(new URL(import.meta.url).pathname);
	let target = null;
	if (source.startsWith('$lib/')) target = path.join(root, 'src/lib', source.slice('$lib/'.length));
	else if (source.startsWith('.')) target = path.resolve(path.dirname(filename), source);
	return target ? path.relative(root, target).replace(/\.(ts|js)$/, '') : null;
}

const guardedImports = {
	meta: { type: 'problem', schema: [] },
	create(context) {
		const file = path.relative(path.dirname(new URL(import.meta.url).pathname), context.filename);
		const check = (node, source, imported) => {
			if (typeof source !== 'string') return;
			const module = importedModule(source, context.filename);
			for (const guard of GUARDED_IMPORTS) {
				if (module !== guard.module || guard.owners.includes(file)) continue;
				const names = imported ?? guard.names;
				for (const name of names.filter((n) => guard.names.includes(n)))
					context.report({ node, message: `${name} from ${guard.module}: ${guard.why}.` });
			}
		};
		return {
			ImportDeclaration(node) {
				for (const specifier of node.specifiers) {
					if (specifier.type === 'ImportSpecifier')
						check(specifier, node.source.value, [specifier.imported.name]);
					// `import * as p` reaches every name: refused for a guarded module outside its owner.
					if (specifier.type === 'ImportNamespaceSpecifier') check(specifier, node.source.value, null);
				}
			},
			ExportNamedDeclaration(node) {
				if (node.source)
					for (const specifier of node.specifiers)
						check(specifier, node.source.value, [specifier.local.name]);
			},
			ExportAllDeclaration(node) {
				if (node.source) check(node, node.source.value, null);
			},
			ImportExpression(node) {
				if (node.source.type === 'Literal') check(node, node.source.value, null);
			}
		};
	}
};

export default ts.config(
	{
		ignores: [
			'build/',
			'builds/',
			'.cache/',
			'.svelte-kit/',
			'data/',
			'drizzle/',
			'test-results/',
			'playwright-report/'
		]
	},
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	prettier,
	...svelte.configs.prettier,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } },
		rules: {
			'no-undef': 'off',
			// The app is always served at the root (no paths.base), so plain hrefs are correct.
			'svelte/no-navigation-without-resolve': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
		}
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
		languageOptions: {
			parserOptions: {
				projectService: true,
				extraFileExtensions: ['.svelte'],
				parser: ts.parser,
				svelteConfig
			}
		}
	},
	{
		files: ['src/**/*.ts', 'src/**/*.svelte'],
		ignores: ['**/*.test.ts'],
		plugins: { atelier: { rules: { 'guarded-imports': guardedImports } } },
		rules: { 'atelier/guarded-imports': 'error' }
	},
	{
		// config.ts is the only reader of the environment (CONTRACT §2).
		// Routes are adapters: they call domains (src/lib/server/<domain>/index.ts), never the infrastructure.
		files: ['src/**/*.ts', 'src/**/*.svelte'],
		ignores: ['src/lib/server/config.ts', 'src/lib/server/config.test.ts'],
		rules: {
			'no-restricted-properties': [
				'error',
				{ object: 'process', property: 'env', message: 'Read configuration through $lib/server/config.' }
			],
			'no-restricted-imports': [
				'error',
				{ patterns: [{ group: ['$env/*'], message: 'Read configuration through $lib/server/config.' }] }
			]
		}
	},
	{
		// What the server entry and the app share goes through one helper (process-wide.js), not globalThis casts.
		files: ['src/**/*.ts', 'src/**/*.svelte'],
		ignores: ['**/*.test.ts'],
		rules: {
			'no-restricted-globals': [
				'error',
				{
					name: 'globalThis',
					message: 'Share a value between the two bundles with processWide() ($lib/server/process-wide).'
				}
			]
		}
	},
	{
		files: ['src/routes/**/*.ts', 'src/routes/**/*.svelte'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['$env/*'], message: 'Read configuration through $lib/server/config.' },
						{
							group: [
								'$lib/server/db',
								'$lib/server/db/*',
								'$lib/server/storage',
								'$lib/server/storage/*',
								'$lib/server/config',
								'$lib/server/app',
								'$lib/server/*/queries',
								'drizzle-orm',
								'drizzle-orm/*'
							],
							message:
								'Routes call domains ($lib/server/<domain>), which hold the database, storage, mail and configuration (CONTRIBUTING.md).'
						},
						{
							// A domain's inner files are its own: a route reaches it through its index.ts, where what it
							// may call is wired (the shared adapters of http/, the page cache's page data excepted).
							regex: '^\\$lib/server/(?!http/|pages/page-data$|mail/previews$)[\\w-]+/.+',
							message:
								'Routes import a domain through its index.ts ($lib/server/<domain>), never its inner files (CONTRIBUTING.md).'
						},
						{
							regex: '^\\.{1,2}/(.*/)?lib/server(/|$)',
							message: 'Routes import the server through $lib/server/<domain>, never by a relative path.'
						},
						{
							// The admin's previews of the e-mails (sample data, nothing sent) are the one part of mail/ a
							// route may import.
							regex: '^\\$lib/server/mail(?!/previews$)(/.*)?$',
							message:
								'Routes call domains ($lib/server/<domain>), which hold the database, storage, mail and configuration (CONTRIBUTING.md).'
						}
					]
				}
			]
		}
	},
	{
		// The ground (configuration, log, the app's wiring, maintenance: the modules directly under src/lib/server)
		// stands on no domain's inner file: a domain is reached through its index.ts, infrastructure as it is.
		files: ['src/lib/server/*.ts'],
		ignores: ['**/*.test.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['$env/*'], message: 'Read configuration through $lib/server/config.' },
						{
							regex: '^\\./(?!(?:db|http|mail|storage|payments|pages)/)[\\w-]+/.+',
							message:
								'A module on the ground imports a domain through its index.ts, never its inner files (CONTRIBUTING.md).'
						}
					]
				}
			]
		}
	},
	{
		// A domain holds rules and SQL only: SvelteKit and superforms code lives in routes or in the shared
		// adapters of src/lib/server/http/ (api, forms, guards, session cookie).
		files: DOMAINS.map((domain) => `src/lib/server/${domain}/**/*.ts`),
		ignores: ['**/*.test.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: DOMAIN_PATTERNS }] }
	},
	{
		// …and its SQL in its queries.ts, the one file of the domain that imports drizzle-orm and the tables (types
		// excepted). Excepted: backup's table copy (tables.ts), which walks every table of the schema.
		files: DOMAINS.map((domain) => `src/lib/server/${domain}/**/*.ts`),
		ignores: ['**/*.test.ts', '**/queries.ts', 'src/lib/server/backup/tables.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: [...DOMAIN_PATTERNS, ...SQL_PATTERNS] }] }
	},
	{
		// The server entry and the operators' commands hold no SQL either: a command calls the domain that owns the
		// tables (`stats` reads the dashboard's figures), never a domain's queries.ts.
		files: ['src/server/**/*.ts'],
		ignores: ['**/*.test.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						...SQL_PATTERNS.map((pattern) => ({
							...pattern,
							group: pattern.group.map((module) => module.replace('../db/', '../../lib/server/db/')),
							message: 'SQL lives in a domain’s queries.ts: call the domain (CONTRIBUTING.md).'
						})),
						{
							group: ['../../lib/server/*/queries'],
							message: 'A domain’s SQL is its own: call its functions, not its queries.ts (CONTRIBUTING.md).'
						}
					]
				}
			]
		}
	}
);
