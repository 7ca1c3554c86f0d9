// The upgrader a release archive carries (`upgrade.mjs` at its top): scripts/upgrade.mjs and what it imports, in one
// file that needs nothing but Node.js — so that an installation of any earlier release, whose own scripts may not
// know archives (0.5.0's printed its usage and exited), is upgraded by the archive's code, run from its standard
// input in the installation's folder (docs/operations.md, « From an earlier release »):
//
//   tar -xzOf atelier-<version>-<commit>.tar.gz upgrade.mjs | node --input-type=module - atelier-<version>-<commit>.tar.gz
//
// Read from standard input, a module's `import.meta.dirname` is the folder it runs in, not a scripts/ folder:
// the bundle's scripts/ is that folder's (build-dir.mjs takes the installation as the folder above it).
import { build } from 'esbuild';
import { root } from './build-dir.mjs';

/** The name the upgrader has in a release archive. */
export const UPGRADER_ENTRY = 'upgrade.mjs';

/**
 * Writes the bundle to `outfile`.
 * @param {string} outfile
 */
export async function bundleUpgrader(outfile) {
	await build({
		absWorkingDir: root,
		entryPoints: ['scripts/upgrade.mjs'],
		outfile,
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node24',
		logLevel: 'warning',
		banner: {
			js:
				"// The upgrader of an Atelier release archive (scripts/upgrader-bundle.mjs): run it in the installation's folder.\n" +
				"const __installationScripts = (await import('node:path')).join(process.cwd(), 'scripts');\n" +
				// Never run by npm: an INIT_CWD here is an npm's that ran this shell, not where the archive's name is read from.
				'delete process.env.INIT_CWD;'
		},
		define: { 'import.meta.dirname': '__installationScripts' }
	});
}
