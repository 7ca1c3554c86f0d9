/**
 * The built server imports at run time only Node's own modules and package.json's `dependencies` (issue
 * "Self-hosting, part 1", point 3): everything else is bundled, so the production install (and the image) holds
 * those few packages. A module that escaped the bundle would be missing there: this finds it on every test run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';
import path from 'node:path';
import { expect, test } from '../support/fixtures';
import { serverEntry } from '../support/server';

const root = path.resolve(import.meta.dirname, '../../..');
const buildDir = path.dirname(path.resolve(root, serverEntry));
const { dependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	dependencies: Record<string, string>;
};

const scripts = (dir: string): string[] =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'client' ? [] : scripts(full);
		return entry.name.endsWith('.js') ? [full] : [];
	});

/**
 * Every bare specifier the files import, statically or through a literal import(), as esbuild's parser sees them
 * (text inside strings and comments is not an import): each bare specifier is marked external, and the metafile
 * lists them.
 */
async function importedPackages(files: string[]): Promise<Map<string, string>> {
	const result = await build({
		entryPoints: files,
		bundle: true,
		write: false,
		metafile: true,
		platform: 'node',
		format: 'esm',
		outdir: path.join(buildDir, '.imports-check'),
		logLevel: 'silent',
		plugins: [
			{
				name: 'bare-specifiers-external',
				setup(b) {
					b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
				}
			}
		]
	});
	const found = new Map<string, string>();
	for (const [file, input] of Object.entries(result.metafile!.inputs))
		for (const { path: specifier, external } of input.imports)
			if (external && !found.has(specifier)) found.set(specifier, file);
	return found;
}

const packageOf = (specifier: string) =>
	specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
const builtin = (specifier: string) =>
	specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

test('the built server imports only Node modules and the runtime dependencies', async () => {
	test.setTimeout(120_000);
	expect(scripts(buildDir).length).toBeGreaterThan(10);
	// The entries reach every chunk they load, statically or through import('./…').
	const entries = ['server.js', 'migrate.js', 'admin.js', 'backup.js', 'restore.js', 'stats.js'].map((name) =>
		path.join(buildDir, name)
	);
	const imported = await importedPackages(entries);
	expect(imported.has('sharp')).toBe(true);
	const strays = [...imported]
		.filter(([specifier]) => !builtin(specifier) && !(packageOf(specifier) in dependencies))
		.map(([specifier, file]) => `${specifier} (${file})`);
	expect(strays).toEqual([]);
});
