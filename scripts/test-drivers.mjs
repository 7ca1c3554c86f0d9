// `npm run test:drivers` (CI runs it with DATABASE_URL on PostgreSQL): what depends on the database driver, again on
// the other driver — the integration files that open a test database (they import tests/helpers/database.ts; the
// others test files, scripts or the embedded database itself, and ran with `npm test`), then the e2e tests tagged
// @drivers.
//
// Playwright filters only the projects nothing depends on, and runs a filtered project's dependencies whole: with
// `--grep @drivers` alone, the memory project (which waits for every other) ran the entire suite again on PostgreSQL
// (315 tests, 25 minutes, for 26 tagged). So the tagged tests run with `--no-deps`, in the config's order: the
// projects that run side by side first, then those that need the machine to themselves, one at a time.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const folder = path.join(root, 'tests', 'integration');
const files = readdirSync(folder)
	.filter((name) => name.endsWith('.test.ts'))
	.filter((name) => /from '\.\.\/helpers\/database'/.test(readFileSync(path.join(folder, name), 'utf8')))
	.map((name) => path.join('tests', 'integration', name));

const run = (command, args) => {
	const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
	if (status !== 0) process.exit(status ?? 1);
};
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
run(bin('vitest'), ['run', '--project', 'integration', '--sequence.shuffle.files', ...files]);
run(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--tests', '--if-stale']);
const tagged = ['test', '--grep', '@drivers', '--no-deps'];
run(bin('playwright'), [...tagged, '--project', 'upgrade', '--project', 'long', '--project', 'chromium']);
run(bin('playwright'), [...tagged, '--project', 'throughput', '--project', 'memory', '--workers', '1']);
