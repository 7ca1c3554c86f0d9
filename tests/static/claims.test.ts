/**
 * "Claims that prove themselves" (issue "The house, part 2", point 7): every promise in README.md, CONTRIBUTING.md,
 * the guides under docs/ and the code's comments that names its proof as `proof: <file> › “<test name>”` names a test that exists — the
 * file, and a test or describe of that exact name in it. A renamed or deleted test fails here, not silently in a
 * document. Each point of the README's « Sign-in security » names at least one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PROOF = /proof: `([^`]+)` › “([^”]+)”/g;

/** Every `proof:` reference in a text, with its line. */
export function proofsIn(text: string): { file: string; name: string; line: number }[] {
	const flat = text.replace(/\n\s*(\/\/|\*)?\s*/g, ' ');
	return [...flat.matchAll(PROOF)].map((m) => ({
		file: m[1]!,
		name: m[2]!,
		line: text.slice(0, text.indexOf(m[1]!)).split('\n').length
	}));
}

/** Whether `file` declares a test or describe named exactly `name` (quotes of any kind). */
export function declaresTest(source: string, name: string): boolean {
	const flat = source.replace(/\n\s*/g, ' ');
	const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(`\\b(it|test|describe)(\\.\\w+)*(\\([^)]*\\))?\\(\\s*['\`"]${escaped}['\`"]`).test(flat);
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return /\.(ts|svelte|js|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
	});
}

/** The guides the README links to (docs/performance.md, docs/courses.md…) make promises too. */
const guides = (dir: string): string[] =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? guides(path.join(dir, entry.name))
			: entry.name.endsWith('.md')
				? [path.join(dir, entry.name)]
				: []
	);

const documents = [
	'README.md',
	'CONTRIBUTING.md',
	...guides('docs'),
	...sourceFiles('src'),
	...sourceFiles('scripts')
];

describe('claims name the tests that prove them', () => {
	it('the reader finds a proof, and a missing test is told apart from a present one', () => {
		const text = 'A promise\n  (proof: `tests/static/claims.test.ts` › “the reader finds a proof”).';
		expect(proofsIn(text)).toEqual([
			{ file: 'tests/static/claims.test.ts', name: 'the reader finds a proof', line: 2 }
		]);
		const source = "it('does this', () => {});\ntest.runIf(x)('does that', async () => {});";
		expect(declaresTest(source, 'does this')).toBe(true);
		expect(declaresTest(source, 'does that')).toBe(true);
		expect(declaresTest(source, 'does something else')).toBe(false);
	});

	it('every proof named in the README, CONTRIBUTING and the code is a test that exists', () => {
		const missing: string[] = [];
		let count = 0;
		for (const document of documents)
			for (const proof of proofsIn(readFileSync(document, 'utf8'))) {
				count++;
				if (!existsSync(proof.file) || !declaresTest(readFileSync(proof.file, 'utf8'), proof.name))
					missing.push(`${document}:${proof.line}: ${proof.file} › “${proof.name}”`);
			}
		expect(missing).toEqual([]);
		expect(count).toBeGreaterThanOrEqual(15);
	});

	it('each point of « Sign-in security » names its proof', () => {
		const readme = readFileSync('README.md', 'utf8');
		const section = readme.slice(readme.indexOf('### Sign-in security'), readme.indexOf('\n## ', readme.indexOf('### Sign-in security')));
		const points = section.split('\n- ').slice(1);
		expect(points.length).toBeGreaterThanOrEqual(9);
		expect(points.filter((point) => proofsIn(point).length === 0).map((p) => p.slice(0, 60))).toEqual([]);
	});
});
