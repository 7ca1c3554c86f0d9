import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import { existsSync, globSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import svelteConfig from './svelte.config.js';
import {
	INFRASTRUCTURE as INFRASTRUCTURE_FOLDERS,
	RUN_TIME_MODULES,
	refusals,
	resolveSpecifier
} from './scripts/boundaries.js';

/**
 * The folders of src/lib/server that are infrastructure, shared by the domains (`pages` is the page cache, a
 * SvelteKit handle): every other folder is a domain, covered by the domain rule below from the day it is created.
 */
const INFRASTRUCTURE = new Set(INFRASTRUCTURE_FOLDERS);
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

const ROOT = path.dirname(new URL(import.meta.url).pathname);
const isFile = (file) => existsSync(file) && statSync(file).isFile();

/**
 * scripts/boundaries.js's rules while one edits (the static walker, tests/static/boundaries.test.ts, applies the
 * same to every file of src/): a domain's inner file reached from outside it, or what checks a secret or opens a
 * session reached by a file that is not its owner — by any form of import, under any name.
 */
const boundaries = {
	meta: { type: 'problem', schema: [] },
	create(context) {
		const file = path.relative(ROOT, context.filename);
		const check = (node, specifier, names, typeOnly = false) => {
			const target = resolveSpecifier(ROOT, file, specifier, isFile);
			for (const message of refusals(file, target, names, typeOnly)) context.report({ node, message });
		};
		/** A string written in full: a literal, or a template without substitutions. */
		const constant = (node) =>
			node?.type === 'Literal' && typeof node.value === 'string'
				? node.value
				: node?.type === 'TemplateLiteral' && node.expressions.length === 0
					? node.quasis[0].value.cooked
					: null;
		const runTime = (node, form) => {
			if (!(file in RUN_TIME_MODULES))
				context.report({
					node,
					message: `A module named at run time (${form}): name it in full, so that its rules can be read.`
				});
		};
		return {
			ImportDeclaration(node) {
				const typeOnly =
					node.importKind === 'type' ||
					(node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
				const names = node.specifiers.some((s) => s.type === 'ImportNamespaceSpecifier')
					? null
					: node.specifiers.map((s) =>
							s.type === 'ImportSpecifier' ? (s.imported.name ?? s.imported.value) : 'default'
						);
				check(node, node.source.value, names, typeOnly);
			},
			ExportNamedDeclaration(node) {
				if (node.source)
					check(
						node,
						node.source.value,
						node.specifiers.map((s) => s.local.name ?? s.local.value),
						node.exportKind === 'type'
					);
			},
			ExportAllDeclaration(node) {
				check(node, node.source.value, null, node.exportKind === 'type');
			},
			ImportExpression(node) {
				const specifier = constant(node.source);
				if (specifier === null) runTime(node, 'import()');
				else check(node, specifier, null);
			},
			CallExpression(node) {
				const callee = node.callee;
				if (callee.type === 'Identifier' && (callee.name === 'require' || callee.name === 'createRequire')) {
					const specifier = constant(node.arguments[0]);
					if (specifier === null) runTime(node, 'require');
					else check(node, specifier, null);
				}
				const glob =
					callee.type === 'MemberExpression' &&
					callee.object.type === 'MetaProperty' &&
					/^glob(Eager)?$/.test(callee.property.name);
				if (!glob) return;
				const argument = node.arguments[0];
				// `{ base }`: relative patterns are read from there (from the root when it starts with `/`).
				const options = node.arguments[1];
				const baseProperty =
					options?.type === 'ObjectExpression'
						? options.properties.find((p) => p.type === 'Property' && (p.key.name ?? p.key.value) === 'base')
						: undefined;
				const base = baseProperty ? constant(baseProperty.value) : null;
				if (baseProperty && base === null) return runTime(node, 'import.meta.glob');
				const from =
					base === null
						? path.dirname(file)
						: base.startsWith('/')
							? base.slice(1)
							: path.join(path.dirname(file), base);
				for (const pattern of argument?.type === 'ArrayExpression' ? argument.elements : [argument]) {
					const text = constant(pattern);
					if (text === null) runTime(node, 'import.meta.glob');
					else if (!text.startsWith('!'))
						for (const match of globSync(text.startsWith('/') ? text.slice(1) : path.join(from, text), {
							cwd: ROOT
						}))
							check(node, `/${match}`, null);
				}
			}
		};
	}
};

/** Every file of src/ the app loads code from, whatever its extension (tests excepted where said). */
const SOURCE = ['src/**/*.{ts,js,mjs,cjs,mts,cts,svelte}'];
const ROUTES = ['src/routes/**/*.{ts,js,mjs,cjs,mts,cts,svelte}'];

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
		files: SOURCE,
		ignores: ['**/*.test.ts'],
		plugins: { atelier: { rules: { boundaries } } },
		rules: { 'atelier/boundaries': 'error' }
	},
	{
		// config.ts is the only reader of the environment (CONTRACT §2).
		// Routes are adapters: they call domains (src/lib/server/<domain>/index.ts), never the infrastructure.
		files: SOURCE,
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
		// Code made from a string runs past every rule here (`new Function('m', 'return import(m)')` imports anything).
		files: SOURCE,
		rules: { 'no-eval': 'error', 'no-new-func': 'error', 'no-implied-eval': 'error' }
	},
	{
		files: SOURCE,
		ignores: ['**/*.test.ts', 'src/lib/process-wide.js'],
		rules: {
			'no-restricted-globals': [
				'error',
				{
					name: 'globalThis',
					message: 'Share a value between the two bundles with processWide() ($lib/process-wide).'
				},
				{
					name: 'global',
					message: 'Share a value between the two bundles with processWide() ($lib/process-wide).'
				}
			]
		}
	},
	{
		files: ROUTES,
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
							// may call is wired (the shared adapters of http/ excepted).
							regex: '^\\$lib/server/(?!http/|mail/previews$)[\\w-]+/.+',
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
		files: ['src/lib/server/*.{ts,js,mjs,cjs,mts,cts}'],
		ignores: ['**/*.test.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['$env/*'], message: 'Read configuration through $lib/server/config.' },
						{
							regex: `^\\./(?!(?:${INFRASTRUCTURE_FOLDERS.join('|')})/)[\\w-]+/.+`,
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
		files: DOMAINS.map((domain) => `src/lib/server/${domain}/**/*.{ts,js,mjs,cjs,mts,cts}`),
		ignores: ['**/*.test.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: DOMAIN_PATTERNS }] }
	},
	{
		// …and its SQL in its queries.ts (or queries/): `atelier/boundaries` holds drizzle-orm and the tables to them and
		// db/ in every file of src/, by what an import resolves to (scripts/boundaries.js, `mayHoldSql`).
		files: DOMAINS.map((domain) => `src/lib/server/${domain}/**/*.{ts,js,mjs,cjs,mts,cts}`),
		ignores: ['**/*.test.ts', '**/queries.ts', '**/queries/*.ts', 'src/lib/server/backup/tables.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: DOMAIN_PATTERNS }] }
	},
	{
		// The server entry and the operators' commands hold no SQL either: a command calls the domain that owns the
		// tables (`stats` reads the dashboard's figures), never a domain's queries.ts.
		files: ['src/server/**/*.{ts,js,mjs,cjs,mts,cts}'],
		ignores: ['**/*.test.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
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
