// `npm run backup|restore|admin|stats|db:migrate -- …`: runs the command the last build made (build/<name>.js), with
// .env when there is one. It builds nothing and writes nothing under the application's folder, so that a nightly
// backup needs no write access to the code (issue "Durable and upgradable", point 7). `npm run build` (or the
// first `npm start`) makes the commands.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildDir, commandNames, root } from './build-dir.mjs';
import { readSettings, serverEnvironment } from './releases.mjs';

const COMMANDS = new Set(commandNames());
const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.has(name)) {
	console.error(`usage: node scripts/command.mjs <${[...COMMANDS].join('|')}> [arguments]`);
	process.exit(2);
}
const entry = path.join(buildDir(), `${name}.js`);
if (!existsSync(entry)) {
	console.error(
		`${path.relative(root, entry)} does not exist: build the application first (npm run build), as its owner.`
	);
	process.exit(1);
}
readSettings();
const child = spawn(process.execPath, [entry, ...args], {
	cwd: process.cwd(),
	env: serverEnvironment(),
	stdio: 'inherit'
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
