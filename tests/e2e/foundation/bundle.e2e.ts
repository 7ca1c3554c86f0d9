/**
 * The built server imports at run time only Node's own modules and package.json's `dependencies` (issue
 * "Self-hosting, part 1", point 3): everything else is bundled, so the production install (and the image) holds
 * those few packages. A module that escaped the bundle would be missing there: this finds it on every test run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
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

/** Bare specifiers of the static imports and re-exports at the start of a line, and of literal import() calls. */
function importedPackages(source: string): string[] {
	const found = [
		...source.matchAll(/^(?:import|export)\s[^'";]*?from\s*["']([^"']+)["']/gm),
		...source.matchAll(/^import\s*["']([^"']+)["']/gm),
		...source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)
	].map((m) => m[1]!);
	return found.filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('/'));
}

const packageOf = (specifier: string) =>
	specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
const builtin = (specifier: string) =>
	specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

test('the built server imports only Node modules and the runtime dependencies', () => {
	const files = scripts(buildDir);
	expect(files.length).toBeGreaterThan(10);
	const strays = new Set<string>();
	for (const file of files) {
		for (const specifier of importedPackages(readFileSync(file, 'utf8'))) {
			if (!builtin(specifier) && !(packageOf(specifier) in dependencies))
				strays.add(`${packageOf(specifier)} (${path.relative(buildDir, file)})`);
		}
	}
	expect([...strays]).toEqual([]);
	// The check does see such imports.
	expect(
		importedPackages(`import { string } from "valibot";\nimport 'typebox/x';\nawait import("zod")`)
	).toEqual(['valibot', 'typebox/x', 'zod']);
});
