/**
 * Run by scripts/build.mjs once the build is bundled: PostgreSQL's initdb for the embedded database, done here so
 * that no server ever does it (db/index.ts says why: 0.6–1.1 GB for initdb, 154 MB to open and migrate what it
 * made). Writes the bare cluster as a tar.gz at the path given; the build keeps it as EMBEDDED_TEMPLATE.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { initEmbeddedDatabase } from '../lib/server/db';

const out = process.argv[2];
if (!out || !path.isAbsolute(out)) {
	console.error('usage: node embedded-template.js <absolute path of the .tar.gz to write>');
	process.exit(2);
}
const scratch = mkdtempSync(path.join(tmpdir(), 'atelier-embedded-template-'));
try {
	initEmbeddedDatabase(scratch);
	execFileSync('tar', ['-czf', out, '-C', scratch, '.']);
} finally {
	rmSync(scratch, { recursive: true, force: true });
}
