// Bundles the server entry and the migration command next to adapter-node's output (build/).
import { build } from 'esbuild';

const common = {
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	logLevel: 'warning',
	alias: { $lib: './src/lib' }
};

await build({
	...common,
	entryPoints: ['src/server/index.ts'],
	outfile: 'build/server.js',
	external: ['./handler.js']
});
await build({ ...common, entryPoints: ['src/server/migrate.ts'], outfile: 'build/migrate.js' });
