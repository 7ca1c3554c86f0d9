import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import { readdirSync } from 'node:fs';
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
	}
);
