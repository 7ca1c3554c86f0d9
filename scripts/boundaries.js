/**
 * Who may import what, said once (issue « The house, part 4 », point 1). Two readers apply it: ESLint
 * (`atelier/boundaries` in eslint.config.js, while one edits) and the static walker (tests/static/boundaries.test.ts,
 * every file of src/ whatever its extension, every form of import, globs expanded). Both hand `refusals` the file
 * that imports, the file or package it reaches and the names it takes; the rules are about what is reached, so an
 * alias, a namespace, a re-export, a `.js` file or a glob reaches the same verdict.
 */
import path from 'node:path';

/** The folders of src/lib/server that are infrastructure shared by the domains; every other folder is a domain. */
export const INFRASTRUCTURE = ['db', 'http', 'imaging', 'mail', 'storage', 'payments', 'pages'];

/** Every extension the app can load code from (Vite and SvelteKit resolve all of them). */
export const CODE_FILE = /\.(svelte|[cm]?[jt]s|[jt]sx)$/;
/** Test files: run by Vitest, never loaded by the app. */
export const TEST_FILE = /\.test\.[cm]?[jt]s$/;

/**
 * What checks a secret or opens a session, and the one file that may hold each (the whole module, or some of its
 * names). A guarded module reached whole (`import * as`, `export *`, `import()`, a glob) counts as every name.
 */
export const GUARDED = [
	{
		module: 'src/lib/server/auth/proof',
		names: ['proofOf', 'openSessionFrom', 'assertProof'],
		owners: ['src/lib/server/auth/index.ts'],
		why: 'a proof opens a session: only auth/index.ts makes one, after the account’s factors'
	},
	{
		module: 'src/lib/server/auth/session',
		names: ['createSession'],
		// index.ts holds the session module whole to wire its other functions; it never calls createSession
		// (tests/static/session-entry.test.ts).
		owners: ['src/lib/server/auth/proof.ts', 'src/lib/server/auth/index.ts'],
		why: 'a session is opened from a proof only (auth/proof.ts)'
	},
	{
		module: 'src/lib/server/auth/queries/session-rows',
		names: null,
		owners: ['src/lib/server/auth/session.ts'],
		why: 'a session row is written by auth/session.ts only, called from a proof'
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
		owners: ['src/lib/server/auth/password.ts'],
		why: 'the password library is auth/password.ts’s: a password is checked by verifyPassword, inside spendAttempt'
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

/**
 * Module references whose target is named at run time (`import(variable)`, a template with substitutions,
 * `require`): none may reach the server, so the only ones allowed are browser code loading a URL, each with its
 * reason.
 */
export const RUN_TIME_MODULES = {
	'src/lib/platform/enhance.js':
		'the browser loads the form’s checks from the URL its page names (data-checks), a built asset'
};

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
	for (const guard of GUARDED) {
		if (module !== guard.module || guard.owners.includes(file)) continue;
		const reached =
			guard.names === null
				? ['the module']
				: (names ?? guard.names).filter((/** @type {string} */ n) => guard.names.includes(n));
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
	if (bare.startsWith('$lib/')) base = path.join('src/lib', bare.slice('$lib/'.length));
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
	return candidates.find((candidate) => exists(path.join(root, candidate))) ?? normal;
}
