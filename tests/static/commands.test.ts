/**
 * The operators' commands are registered once (issue « The house, part 3 », point 5): the files of
 * src/server/commands/ are the list — scripts/build-server.mjs bundles each, scripts/command.mjs runs each — and
 * every one has its npm script, every such script a file.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');
const files = readdirSync(path.join(root, 'src', 'server', 'commands'))
	.filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
	.map((name) => name.slice(0, -3))
	.sort();

describe('commands registered once', () => {
	it('every command file has an npm script, and every command script names a file', () => {
		const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
		const run = Object.values(scripts)
			.map((script) => /^node scripts\/command\.mjs (\S+)$/.exec(script)?.[1])
			.filter((name): name is string => Boolean(name))
			.sort();
		expect(files.length).toBeGreaterThanOrEqual(5);
		expect(run).toEqual(files);
	});

	it('scripts/command.mjs knows exactly the files, and refuses any other name with them listed', () => {
		const refused = spawnSync(process.execPath, ['scripts/command.mjs', 'no-such-command'], {
			cwd: root,
			encoding: 'utf8'
		});
		expect(refused.status).toBe(2);
		expect(refused.stderr).toContain(`<${files.join('|')}>`);
		// A helper of theirs is not a command.
		const helper = spawnSync(process.execPath, ['scripts/command.mjs', 'command'], { cwd: root, encoding: 'utf8' });
		expect(helper.status).toBe(2);
	});

	it('scripts/build-server.mjs bundles the folder’s files, not a list of its own', () => {
		const source = readFileSync(path.join(root, 'scripts', 'build-server.mjs'), 'utf8');
		expect(source).toContain('commandNames()');
		expect(source).not.toMatch(/\[\s*'migrate'/);
	});
});
