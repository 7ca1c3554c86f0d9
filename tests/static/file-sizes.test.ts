/**
 * One concern a file (issue « The house, part 4 », point 2): past a few hundred lines a file of the server holds
 * several concerns, and a reader has to hold them all to change one. The domains' rules stay under ~450 lines
 * (460: the insights tally, at 456, is one concern); SQL, which reads as a list of independent statements, under
 * ~500, in a `queries/` folder of one reader a file when it grows (insights/queries/, auth/queries/). The schema
 * (one table a block) and the configuration (one variable a block) are lists too, and not bounded here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { root, sourceFiles } from './module-references';

const RULES_MAX = 460;
const SQL_MAX = 500;
const isSql = (file: string) => /\/queries(\.ts|\/[\w-]+\.ts)$/.test(file);
const UNBOUNDED = new Set(['src/lib/server/db/schema.ts', 'src/lib/server/config.ts']);

it('no file of src/lib/server holds more than one concern’s lines', () => {
	const lines = (file: string) => readFileSync(path.join(root, file), 'utf8').split('\n').length;
	const files = sourceFiles('src/lib/server').filter((file) => !UNBOUNDED.has(file));
	expect(files.some(isSql)).toBe(true);
	const over = files
		.map((file) => ({ file, lines: lines(file), max: isSql(file) ? SQL_MAX : RULES_MAX }))
		.filter(({ lines, max }) => lines > max)
		.map(({ file, lines, max }) => `${file}: ${lines} lines (at most ${max})`);
	expect(over).toEqual([]);
});
