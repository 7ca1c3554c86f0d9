/**
 * The production server imports no validator library but zod (issue "Groundwork", point 8): superforms lists
 * them all as optional dependencies, and docker/Dockerfile deletes them from the image on that promise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../support/fixtures';

const root = path.resolve(import.meta.dirname, '../../..');
const UNUSED = [
	'@exodus/schemasafe',
	'@typeschema/class-validator',
	'@valibot/to-json-schema',
	'@vinejs/vine',
	'arktype',
	'class-validator',
	'effect',
	'joi',
	'json-schema-to-ts',
	'superstruct',
	'typebox',
	'valibot',
	'yup'
];

const scripts = (dir: string): string[] =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return scripts(full);
		return entry.name.endsWith('.js') ? [full] : [];
	});

test('the built server imports none of the validator libraries the image leaves out', () => {
	const files = [...scripts(path.join(root, 'build', 'server')), path.join(root, 'build', 'server.js')];
	expect(files.length).toBeGreaterThan(10);
	const dockerfile = readFileSync(path.join(root, 'docker', 'Dockerfile'), 'utf8');
	for (const name of UNUSED) expect(dockerfile).toContain(`node_modules/${name}`);
	const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
	const importOf = new RegExp(
		`(?:from|import\\(|require\\()\\s*["'](?:${UNUSED.map(escaped).join('|')})(?:/[^"']*)?["']`
	);
	const offenders = files.filter((file) => importOf.test(readFileSync(file, 'utf8')));
	expect(offenders).toEqual([]);
	// The check does find such an import when there is one.
	expect(importOf.test(`import { string } from "valibot";`)).toBe(true);
});
