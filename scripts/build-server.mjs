// Bundles the server entry and the operators' commands (each file of src/server/commands/: migrations, admin
// recovery, backup, restore, stats) next to adapter-node's output (build/).
// Like adapter-node, it leaves out only package.json's `dependencies` (native code, WebAssembly, undici's optional
// node:sqlite): everything else is bundled, so the production install holds those few packages and nothing else.
import { build } from 'esbuild';
import path from 'node:path';
import { buildDir, commandNames } from './build-dir.mjs';
import { bundleOptions as common } from './bundle-options.mjs';

const out = buildDir();

await build({
	...common,
	entryPoints: ['src/server/index.ts'],
	outfile: path.join(out, 'server.js'),
	external: [...common.external, './handler.js']
});
// Not a command: the build runs it once to write the embedded database's template (scripts/build.mjs).
await build({
	...common,
	entryPoints: ['src/server/embedded-template.ts'],
	outfile: path.join(out, 'embedded-template.js')
});
for (const command of commandNames())
	await build({
		...common,
		entryPoints: [`src/server/commands/${command}.ts`],
		outfile: path.join(out, `${command}.js`)
	});
