/**
 * The embedded database keeps what it acknowledges (issue "Durable and upgradable", point 1): PGlite starts without
 * `-F`, with fsync on and the WAL flushed by fsync — which durable-fs.ts turns into real fsyncs of the files — and no
 * way of starting it (the server, the commands, the first creation) bypasses that.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_START_PARAMS, openDatabase } from '../../src/lib/server/db';
import { flushes } from '../../src/lib/server/db/durable-fs';

const rowsOf = <T>(result: unknown): T[] =>
	Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

const dirs: string[] = [];
afterAll(async () => {
	for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the embedded database on disk', () => {
	it('starts with fsync on: no -F, WAL flushed with fsync', () => {
		expect(EMBEDDED_START_PARAMS).not.toContain('-F');
		const settings = EMBEDDED_START_PARAMS.filter((_, i) => EMBEDDED_START_PARAMS[i - 1] === '-c');
		expect(settings).toEqual(
			expect.arrayContaining(['fsync=on', 'synchronous_commit=on', 'wal_sync_method=fsync'])
		);
		expect(settings.some((s) => /^(fsync|synchronous_commit|full_page_writes)=off/.test(s))).toBe(false);
	});

	it('flushes each acknowledged commit to the disk', { timeout: 120_000 }, async () => {
		const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-durable-'));
		dirs.push(dataDir);
		const database = openDatabase({ url: null, pgliteDir: path.join(dataDir, 'db'), purpose: 'server' });
		try {
			await database.migrate();
			const [setting] = rowsOf<{ fsync: string }>(await database.db.execute(sql`show fsync`));
			expect(setting!.fsync).toBe('on');
			const before = flushes();
			for (let i = 0; i < 3; i++)
				await database.db.execute(
					sql`insert into rate_limits (key, count, reset_at) values (${`durable-${i}`}, 1, now())`
				);
			// Each commit waits for its WAL record to be fsynced before it is acknowledged.
			expect(flushes() - before).toBeGreaterThanOrEqual(3);
		} finally {
			await database.close();
		}
	});

	it('is opened only through openDatabase, and its first creation is flushed too', async () => {
		const sources = await readdir('src', { recursive: true });
		const constructing = [];
		for (const file of sources.filter((f) => /\.(ts|js|mjs)$/.test(f) && !/\.test\./.test(f))) {
			const text = await readFile(path.join('src', file), 'utf8');
			if (/new PGlite\(/.test(text)) constructing.push(file);
		}
		// The server, the commands and the first creation's child process all start from db/index.ts.
		expect(constructing).toEqual(['lib/server/db/index.ts']);
		const index = await readFile('src/lib/server/db/index.ts', 'utf8');
		expect(index).toMatch(/createEmbeddedDatabase\(pgliteDir\);\s*\/\/[^\n]*\n\s*fsyncTree\(pgliteDir\);/);
		expect(index).toContain('startParams: params');
		expect(index).toMatch(/params: EMBEDDED_START_PARAMS/);
	});
});
