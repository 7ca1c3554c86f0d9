/**
 * Who may import what, said once (issue « The house, part 4 », point 1). Two readers apply it: ESLint
 * (`atelier/boundaries` in eslint.config.js, while one edits) and the static walker (tests/static/boundaries.test.ts,
 * every file of src/ whatever its extension, every form of import, globs expanded). Both hand `refusals` the file
 * that imports, the file or package it reaches and the names it takes; the rules are about what is reached, so an
 * alias, a namespace, a re-export, a `.js` file or a glob reaches the same verdict.
 */
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** The folders of src/lib/server that are infrastructure shared by the domains; every other folder is a domain. */
export const INFRASTRUCTURE = ['db', 'http', 'imaging', 'mail', 'storage', 'payments', 'pages'];

/** Every extension the app can load code from (Vite and SvelteKit resolve all of them). */
export const CODE_FILE = /\.(svelte|[cm]?[jt]s|[jt]sx)$/;
/** Test files: run by Vitest, never loaded by the app. */
export const TEST_FILE = /\.test\.[cm]?[jt]s$/;

/**
 * What checks a secret or opens a session, and the one file that may hold each: each capability is a module of its
 * own, guarded whole (`names: null`: any of its names, in any form of import; its types excepted), so that a new
 * export of it is guarded the day it is written (« The house, part 5 »).
 */
export const GUARDED = [
	{
		module: 'src/lib/server/auth/proof',
		names: null,
		owners: ['src/lib/server/auth/index.ts'],
		why: 'a proof opens a session: only auth/index.ts makes one, after the account’s factors'
	},
	{
		module: 'src/lib/server/auth/session-open',
		names: null,
		owners: ['src/lib/server/auth/proof.ts'],
		why: 'a session is opened from a proof only (auth/proof.ts)'
	},
	{
		module: 'src/lib/server/auth/queries/session-rows',
		names: null,
		owners: ['src/lib/server/auth/session-open.ts'],
		why: 'a session row is written by auth/session-open.ts only, called from a proof'
	},
	{
		module: 'src/lib/server/auth/queries/recovery-codes',
		names: null,
		owners: ['src/lib/server/auth/two-factor.ts'],
		why: 'a recovery code is spent inside spendAttempt (auth/two-factor.ts): an attempt is spent before it is checked'
	},
	{
		module: '@node-rs/argon2',
		names: null,
		owners: ['src/lib/server/auth/password.ts', 'src/lib/server/auth/password-check.ts'],
		why: 'the password library is auth/password.ts’s (hashing) and auth/password-check.ts’s (checking, inside spendAttempt)'
	},
	{
		module: 'src/lib/server/auth/password-check',
		names: null,
		owners: ['src/lib/server/auth/sign-in.ts'],
		why: 'a password is checked inside spendAttempt (auth/sign-in.ts): an attempt is spent before it is checked'
	},
	{
		module: 'node:module',
		names: null,
		owners: [],
		why: 'createRequire loads any module under any name, past every rule here: import what you need'
	},
	{
		module: 'module',
		names: null,
		owners: [],
		why: 'createRequire loads any module under any name, past every rule here: import what you need'
	},
	{
		module: 'src/lib/server/auth/totp',
		names: null,
		owners: ['src/lib/server/auth/two-factor.ts'],
		why: 'a code is checked inside spendAttempt (auth/two-factor.ts): an attempt is spent before it is checked'
	}
];

/**
 * Module references whose target is named at run time (`import(variable)`, a template with substitutions,
 * `require`): none may reach the server, so the only ones allowed are browser code loading a URL, each with its
 * reason.
 */
export const RUN_TIME_MODULES = {
	'src/lib/platform/enhance.js':
		'the browser loads the form’s checks from the URL its page names (data-checks), a built asset'
};

/** What a route may not reach, whatever it names it as: the database, storage, configuration, the wiring, SQL. */
const ROUTE_FORBIDDEN =
	/^(src\/lib\/server\/(db|storage)(\/.*)?|src\/lib\/server\/(config|app)|src\/lib\/server\/[\w-]+\/queries(\/.*)?|drizzle-orm)$/;

/** SQL: the query builder and the tables. */
const SQL_MODULE = /^(drizzle-orm|src\/lib\/server\/db\/schema)$/;

/**
 * The files that may write SQL: a domain's queries.ts or queries/, db/ itself, and the backup's table copy (the
 * named exception: it copies every table whatever its domain). Tests and the benchmarks' seed are not the app.
 * @param {string} file
 */
const mayHoldSql = (file) =>
	!file.startsWith('src/') ||
	/^src\/lib\/server\/db\//.test(file) ||
	/^src\/lib\/server\/[\w-]+\/queries(\.[cm]?[jt]s|\/.+)$/.test(file) ||
	file === 'src/lib/server/backup/tables.ts';

/**
 * The domain a repository-relative file belongs to, and whether it is the domain's face (its index).
 * @param {string} file
 */
function placeOf(file) {
	const match = /^src\/lib\/server\/([\w-]+)\/(.+)$/.exec(file);
	const [, domain = '', inner = ''] = match ?? [];
	if (!match || INFRASTRUCTURE.includes(domain)) return null;
	return { domain, face: /^index\.[cm]?[jt]s$/.test(inner) };
}

/** @param {string} file */
const withoutExtension = (file) =>
	file.replace(/(\.svelte)?\.[cm]?[jt]sx?$|\.svelte$/, '').replace(/\/index$/, '');

/**
 * Why `file` may not reach `target` (a repository-relative file, or a package name) taking `names` (null: the
 * module whole), as messages; none when it may. `typeOnly`: erased at build, so no domain boundary is crossed at
 * run time (a guarded module's types are free too).
 * @param {string} file
 * @param {string} target
 * @param {string[] | null} names
 * @returns {string[]}
 */
export function refusals(file, target, names, typeOnly = false) {
	if (typeOnly) return [];
	const found = [];
	const place = placeOf(target);
	if (place && !place.face && !file.startsWith(`src/lib/server/${place.domain}/`))
		found.push(
			`${target} is an inner file of the ${place.domain} domain: import the domain through its index.ts (CONTRIBUTING.md).`
		);
	const module = withoutExtension(target);
	if (file.startsWith('src/routes/') && ROUTE_FORBIDDEN.test(module))
		found.push(
			`${target}: routes call domains ($lib/server/<domain>), which hold the database, storage, mail and configuration (CONTRIBUTING.md).`
		);
	if (SQL_MODULE.test(module) && !mayHoldSql(file))
		found.push(
			`${target}: SQL is written in a domain's queries.ts (or queries/) and in db/ only, never beside it (CONTRIBUTING.md, « a domain's SQL »).`
		);
	for (const guard of GUARDED) {
		if (module !== guard.module || guard.owners.includes(file)) continue;
		// Guarded whole: whatever the import takes — its names, or everything when it is a namespace, a glob, an
		// `import()` — and only its types are free (`typeOnly`, above).
		const reached = names ?? ['the module'];
		for (const name of reached)
			found.push(`${name === 'the module' ? guard.module : `${name} from ${guard.module}`}: ${guard.why}.`);
	}
	return found;
}

/**
 * The repository-relative file a module specifier names from `file`, or the package's name.
 * @param {string} root
 * @param {string} file
 * @param {string} specifier
 * @param {(file: string) => boolean} exists
 * @returns {string}
 */
export function resolveSpecifier(root, file, specifier, exists) {
	const bare = specifier.replace(/[?#].*$/, '');
	let base = null;
	const alias = Object.entries(aliasesOf(root)).find(
		([name]) => bare === name || bare.startsWith(`${name}/`)
	);
	if (alias) base = path.join(alias[1], bare.slice(alias[0].length));
	else if (bare.startsWith('/src/')) base = bare.slice(1);
	else if (bare.startsWith('.')) base = path.join(path.dirname(file), bare);
	else if (bare.startsWith('/') || bare.startsWith('$')) return bare;
	else return bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : (bare.split('/')[0] ?? bare);
	const normal = path.normalize(base).split(path.sep).join('/');
	const candidates = [
		normal,
		...['.ts', '.js', '.svelte', '.mjs', '.mts', '.cjs', '.cts'].map((e) => normal + e)
	];
	candidates.push(...['ts', 'js', 'mjs'].map((e) => `${normal}/index.${e}`));
	// `./x.js` written for `./x.ts` (TypeScript's convention): the .ts file is what loads.
	if (/\.js$/.test(normal)) candidates.push(normal.replace(/\.js$/, '.ts'));
	const found = candidates.find((candidate) => exists(path.join(root, candidate)));
	return found ? realPath(root, found) : normal;
}

/**
 * The file a path leads to once every link is followed: a symbolic link is judged by what it points at (src/ holds
 * none: tests/static/boundaries.test.ts), and one that leads out of the repository is its own path.
 * @param {string} root
 * @param {string} file
 */
function realPath(root, file) {
	try {
		const real = path.relative(realpathSync(root), realpathSync(path.join(root, file)));
		return real.startsWith('..') ? file : real.split(path.sep).join('/');
	} catch {
		return file;
	}
}

/** The aliases `$lib` and those of svelte.config.js's `kit.alias`, read once per root. */
const aliasCache = new Map();
/** @param {string} root @returns {Record<string, string>} */
export function aliasesOf(root) {
	let aliases = aliasCache.get(root);
	if (!aliases) {
		aliases = { $lib: 'src/lib', ...kitAliases(readFileSync(path.join(root, 'svelte.config.js'), 'utf8')) };
		aliasCache.set(root, aliases);
	}
	return aliases;
}

/**
 * `kit.alias` as svelte.config.js writes it (`alias: { $content: 'src/content' }`): each name and its folder.
 * @param {string} config
 * @returns {Record<string, string>}
 */
export function kitAliases(config) {
	const block = /\balias\s*:\s*\{([^}]*)\}/.exec(config)?.[1] ?? '';
	return Object.fromEntries(
		[...block.matchAll(/['"]?(\$?[\w$/-]+)['"]?\s*:\s*['"]([^'"]+)['"]/g)].map((m) => [
			m[1],
			(m[2] ?? '').replace(/^\.\//, '')
		])
	);
}

/** The aliases the app may have: an alias is a name the rules read like any path, and a new one a way around them. */
export const ALLOWED_ALIASES = ['$lib', '$content'];

/**
 * Why the build's configuration may not be as written: an alias beyond `$lib` and `$content` (kit.alias), or any
 * in vite.config.ts (`resolve.alias`, which the rules do not read).
 * @param {string} svelteConfig
 * @param {string} viteConfig
 * @returns {string[]}
 */
export function aliasProblems(svelteConfig, viteConfig) {
	const found = Object.keys(kitAliases(svelteConfig))
		.filter((name) => !ALLOWED_ALIASES.includes(name))
		.map((name) => `svelte.config.js: the alias ${name} — import by $lib, $content or a relative path.`);
	if (/\balias\s*:/.test(viteConfig))
		found.push(
			'vite.config.ts: resolve.alias — aliases live in svelte.config.js (kit.alias), $lib and $content only.'
		);
	return found;
}
