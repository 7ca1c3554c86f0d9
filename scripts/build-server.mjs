// Bundles the server entry and the operators' commands (each file of src/server/commands/: migrations, admin
// recovery, backup, restore, stats) next to adapter-node's output (build/).
// Like adapter-node, it leaves out only package.json's `dependencies` (native code, WebAssembly, undici's optional
// node:sqlite): everything else is bundled, so the production install holds those few packages and nothing else.
import { build } from 'esbuild';
import path from 'node:path';
import { buildDir, commandNames } from './build-dir.mjs';
import { bundleOptions as common } from './bundle-options.mjs';

const out = buildDir();

/**
 * Each entry is two files: `<name>.js`, a few lines that make sure the process runs with the settings V8 and glibc
 * read only at start-up (src/server/heap.ts, `startWithProcessSettings`: it starts again, as the same process, when
 * one is missing) and then load `<name>.main.js`, the bundle. Restarting from inside the bundle loaded it twice:
 * `node build/backup.js` spent 1.1–1.25 s before its usage line, 0.57 s with the settings given (7 December).
 */
async function entry(name, options, flags = 'V8_FLAGS') {
	const main = `./${name}.main.js`;
	await build({ ...common, ...options, outfile: path.join(out, `${name}.main.js`) });
	await build({
		...common,
		stdin: {
			contents:
				`import { startWithProcessSettings, ${flags} } from './src/server/heap';\n` +
				`startWithProcessSettings(${flags});\nawait import('${main}');\n`,
			resolveDir: common.absWorkingDir,
			sourcefile: `${name}-launcher.ts`,
			loader: 'ts'
		},
		outfile: path.join(out, `${name}.js`),
		external: [...common.external, main]
	});
}

await entry('server', {
	entryPoints: ['src/server/index.ts'],
	external: [...common.external, './handler.js']
});
// Not a command: the build runs it once to write the embedded database's template (scripts/build.mjs).
await build({
	...common,
	entryPoints: ['src/server/embedded-template.ts'],
	outfile: path.join(out, 'embedded-template.js')
});
// The commands with a young generation of their own (src/server/heap.ts, COMMAND_V8_FLAGS).
for (const command of commandNames())
	await entry(command, { entryPoints: [`src/server/commands/${command}.ts`] }, 'COMMAND_V8_FLAGS');
