import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, STALE_MS, dataDirHolder, lockDataDir } from './data-dir-lock';

const children: { kill(): void }[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill()));

function freshDir() {
	return mkdtempSync(path.join(tmpdir(), 'atelier-lock-'));
}

/** A live process of this host, standing for a server that holds the lock. */
function liveProcess() {
	const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
	children.push(child);
	return child.pid!;
}

async function deadPid() {
	const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
	await new Promise((resolve) => child.on('exit', resolve));
	return child.pid!;
}

function writeHolder(dir: string, holder: Partial<{ pid: number; host: string }>) {
	const file = path.join(dir, LOCK_FILE);
	const content = {
		pid: 1,
		host: hostname(),
		startedAt: '2026-11-25T08:00:00.000Z',
		purpose: 'server',
		token: 'other',
		...holder
	};
	writeFileSync(file, JSON.stringify(content));
	return file;
}

describe('the DATA_DIR lock', () => {
	it('is taken on a free directory, names its holder, and is gone once released', () => {
		const dir = freshDir();
		const lock = lockDataDir(dir);
		const holder = JSON.parse(readFileSync(lock.file, 'utf8'));
		expect(holder).toMatchObject({ pid: process.pid, host: hostname(), purpose: 'server' });
		lock.release();
		expect(existsSync(lock.file)).toBe(false);
	});

	it('refuses a directory that a live process of this host holds, naming the directory and the process', () => {
		const dir = freshDir();
		const pid = liveProcess();
		writeHolder(dir, { pid });
		expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
		expect(() => lockDataDir(dir)).toThrow(new RegExp(`${dir}.*pid ${pid} on ${hostname()}`));
		expect(dataDirHolder(dir)?.pid).toBe(pid);
	});

	it('takes over a lock whose process died (kill -9): nothing to clean by hand', async () => {
		const dir = freshDir();
		writeHolder(dir, { pid: await deadPid() });
		expect(dataDirHolder(dir)).toBeNull();
		const lock = lockDataDir(dir, 'backup');
		expect(JSON.parse(readFileSync(lock.file, 'utf8'))).toMatchObject({
			pid: process.pid,
			purpose: 'backup'
		});
		lock.release();
	});

	it('trusts another host’s lock while it is touched, and takes it over once it went stale', () => {
		const dir = freshDir();
		const file = writeHolder(dir, { pid: 4242, host: 'other-container' });
		expect(() => lockDataDir(dir)).toThrow(/pid 4242 on other-container/);
		const past = new Date(Date.now() - STALE_MS - 1000);
		utimesSync(file, past, past);
		const lock = lockDataDir(dir);
		expect(dataDirHolder(dir)).toBeNull(); // held by this very process
		lock.release();
	});

	it('takes over a half-written lock file', () => {
		const dir = freshDir();
		writeFileSync(path.join(dir, LOCK_FILE), '{"pid": 12');
		const lock = lockDataDir(dir);
		expect(existsSync(lock.file)).toBe(true);
		lock.release();
	});
});
