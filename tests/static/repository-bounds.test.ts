/**
 * `npm test` must pass on a user's clone, which has nothing beside it (issue "Hardening", point 13), and a
 * stream passed on with `.pipe()` drops its errors (point 1). Both are properties of the source text: this reads
 * every source, test, script and benchmark file and fails on a path that climbs out of the repository towards
 * the project's shared folder, or on a `.pipe(` call.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const CODE = /\.(ts|js|mjs|cjs|svelte)$/;

function codeFiles(dir: string): string[] {
	return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(relative);
		return CODE.test(entry.name) ? [relative] : [];
	});
}

const files = ['src', 'tests', 'scripts', 'bench'].flatMap(codeFiles);
const THIS_FILE = path.relative(root, import.meta.filename);

describe('the repository stands alone', () => {
	it('finds the files it checks', () => {
		expect(files.length).toBeGreaterThan(50);
		expect(files).toContain('tests/helpers/fixtures.ts');
	});

	it('reads nothing from a shared folder outside the repository', () => {
		const outward = /(\.\.[\\/]|['"]\.\.['"],\s*)+['"]?shared\b/;
		const offenders = files.filter((file) => file !== THIS_FILE && outward.test(readFileSync(path.join(root, file), 'utf8')));
		expect(offenders).toEqual([]);
	});

	it('passes streams on with pipeline, never with a bare .pipe()', () => {
		// zod schemas have a `.pipe()` of their own; only modules that handle Node streams are checked.
		const handlesStreams = /from '(node:)?(stream|fs|http|net)(\/[a-z]+)?'|from '(busboy|undici|minio)'/;
		const streamModules = files
			.filter((file) => file.startsWith('src/'))
			.map((file) => [file, readFileSync(path.join(root, file), 'utf8')] as const)
			.filter(([, text]) => handlesStreams.test(text));
		expect(streamModules.length).toBeGreaterThan(5);
		const offenders = streamModules.filter(([, text]) => /\.pipe\(/.test(text)).map(([file]) => file);
		expect(offenders).toEqual([]);
	});
});
