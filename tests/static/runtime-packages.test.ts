/**
 * The production install holds what build/ imports at run time and nothing else (issue "Self-hosting, part 1",
 * point 3): no build tool, no validator library that superforms lists as optional. Read from the lock file as
 * `npm ci --omit=dev` installs it, on every `npm test`; scripts/test-container.mjs checks the built image too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forbiddenInRuntime, productionPackages } from '../../scripts/runtime-packages.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const production = productionPackages(lock);
const forbidden = forbiddenInRuntime();

describe('the runtime install', () => {
	it('holds the runtime dependencies the build leaves out of its bundle', () => {
		expect(production).toEqual(expect.arrayContaining(['sharp', '@node-rs/argon2', '@electric-sql/pglite', 'undici']));
	});

	it('knows the tools and unused validators it must never hold', () => {
		expect([...forbidden]).toEqual(
			expect.arrayContaining(['typescript', 'vite', 'tsx', 'esbuild', 'valibot', 'arktype', 'yup', 'joi', 'effect'])
		);
		expect(forbidden.has('zod')).toBe(true); // a devDependency now: bundled, never installed at run time
		expect(forbidden.has('sharp')).toBe(false);
	});

	it('holds none of them', () => {
		expect(production.filter((name) => forbidden.has(name))).toEqual([]);
	});

	it('would catch a build tool or a validator that a dependency pulled in', () => {
		const polluted = structuredClone(lock);
		polluted.packages['node_modules/typescript'] = { version: '6.0.0' };
		polluted.packages['node_modules/sharp/node_modules/valibot'] = { version: '1.0.0', optional: true };
		const found = productionPackages(polluted).filter((name) => forbidden.has(name));
		expect(found).toEqual(['typescript', 'valibot']);
	});
});
