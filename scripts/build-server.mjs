// Bundles the server entry and the commands (migrations, admin recovery, backup, restore) next to adapter-node's output (build/).
// Like adapter-node, it leaves out only package.json's `dependencies` (native code, WebAssembly, undici's optional
// node:sqlite): everything else is bundled, so the production install holds those few packages and nothing else.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildDir, root } from './build-dir.mjs';

const out = buildDir();

const { dependencies = {} } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const common = {
	absWorkingDir: root,
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node24',
	external: Object.keys(dependencies).flatMap((name) => [name, `${name}/*`]),
	// Bundled CommonJS packages call require(); give the ES module one.
	banner: {
		js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
	},
	logLevel: 'warning',
	alias: { $lib: './src/lib' }
};

await build({
	...common,
	entryPoints: ['src/server/index.ts'],
	outfile: path.join(out, 'server.js'),
	external: [...common.external, './handler.js']
});
await build({ ...common, entryPoints: ['src/server/migrate.ts'], outfile: path.join(out, 'migrate.js') });
for (const command of ['admin', 'backup', 'restore'])
	await build({ ...common, entryPoints: [`src/server/${command}.ts`], outfile: path.join(out, `${command}.js`) });
