/**
 * PGlite's file system, made to keep what it acknowledges (issue "Durable and upgradable", point 1). PGlite runs
 * PostgreSQL in WebAssembly over Emscripten's NODEFS, whose files have no `fsync`: PostgreSQL's calls to it were
 * answered "done" without touching the disk, so `kill -9` was survived but a power cut could lose committed leads.
 * Here each `fsync` becomes Node's `fs.fsyncSync` on the real file. Emscripten's `fdatasync` does nothing, so the
 * start parameters make PostgreSQL flush its WAL with `fsync` (`wal_sync_method=fsync`, db/index.ts) (proof:
 * `tests/integration/durability.integration.test.ts` › “flushes each acknowledged commit to the disk”).
 */
import { fsyncSync, openSync, closeSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** What this needs of NODEFS (Emscripten's types do not declare its stream operations). */
interface NodeFsStreams {
	stream_ops: { fsync?: (stream: { nfd?: number }) => number | void };
}

let flushed = 0;
/** How many fsyncs the embedded database made since the process started (tests, `npm run bench`). */
export const flushes = (): number => flushed;

export class DurableNodeFS extends NodeFS {
	async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
		const { emscriptenOpts } = await super.init(pg, opts);
		const makeDurable = (mod: { NODEFS: unknown }) => {
			const nodefs = mod.NODEFS as NodeFsStreams;
			nodefs.stream_ops.fsync = (stream) => {
				if (stream.nfd !== undefined) {
					fsyncSync(stream.nfd);
					flushed++;
				}
				return 0;
			};
		};
		return {
			emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), makeDurable] }
		};
	}
}

/** Flushes every file under `dir`, then the folders themselves: a database just created is on disk as a whole. */
export function fsyncTree(dir: string): number {
	let files = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) files += fsyncTree(full);
		else if (entry.isFile()) {
			const fd = openSync(full, 'r');
			try {
				fsyncSync(fd);
			} finally {
				closeSync(fd);
			}
			files++;
		}
	}
	const fd = openSync(dir, 'r');
	try {
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	return files;
}
