/**
 * One process per embedded database. PGlite keeps no lock of its own: two servers started on the same DATA_DIR
 * both open it, and one of them silently loses what it wrote. The embedded driver takes this lock before it opens
 * the database; a second process refuses to start with a message that names the directory and the holder.
 *
 * Node has no flock(), so the lock is a file that names its holder and that the holder touches every few seconds:
 * - on the same host, a holder whose process is gone (a `kill -9`, a crash) has left a stale lock, taken over at
 *   once, with nothing to clean by hand;
 * - from another host or container sharing the volume, where its process cannot be seen, a lock not touched for
 *   STALE_MS is stale.
 * A takeover writes a new file and renames it over the old one, then reads it back: of two processes taking over
 * at the same moment, the one whose token is not there gives up.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { log } from '../log';
import { PRIVATE_FILE_MODE } from '../private-files';

export const LOCK_FILE = 'atelier.lock';
const HEARTBEAT_MS = 2_000;
export const STALE_MS = 10_000;

export interface LockHolder {
	pid: number;
	host: string;
	startedAt: string;
	/** What holds it: "server", or the command's name ("backup", "admin"). */
	purpose: string;
	token: string;
	/** The server's own address (ORIGIN): a command that finds DATA_DIR held names it, not its own default. */
	origin?: string;
}

export class DataDirLockedError extends Error {
	constructor(
		readonly dataDir: string,
		readonly holder: LockHolder
	) {
		super(
			`DATA_DIR ${dataDir} is in use by another Atelier process (${holder.purpose}, pid ${holder.pid} on ` +
				`${holder.host}, since ${holder.startedAt}). The embedded database belongs to one process: stop that ` +
				`one first, or give this one another DATA_DIR. To run several instances, use PostgreSQL (DATABASE_URL).`
		);
		this.name = 'DataDirLockedError';
	}
}

export interface DataDirLock {
	readonly file: string;
	release(): void;
}

function readHolder(file: string): LockHolder | null {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as LockHolder;
	} catch {
		// Gone, or half-written by a holder that died while writing it: nobody holds it.
		return null;
	}
}

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it exists and belongs to someone else.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Whether the lock file names a live holder other than this process. */
export function liveHolder(file: string, now = Date.now()): LockHolder | null {
	const holder = readHolder(file);
	if (!holder) return null;
	if (holder.host === hostname()) {
		// Our own pid in a restarted container (pid 1 again) is a previous life of ours.
		return holder.pid !== process.pid && processAlive(holder.pid) ? holder : null;
	}
	let touched: number;
	try {
		touched = statSync(file).mtimeMs;
	} catch {
		return null;
	}
	return now - touched < STALE_MS ? holder : null;
}

/** The holder of DATA_DIR's lock, if a live process holds it (for commands that must not run beside a server). */
export function dataDirHolder(dataDir: string): LockHolder | null {
	return liveHolder(path.join(dataDir, LOCK_FILE));
}

/** Takes DATA_DIR's lock or throws DataDirLockedError; the lock is released on `release()` and dies with us. */
export function lockDataDir(dataDir: string, purpose = 'server', origin?: string): DataDirLock {
	const file = path.join(dataDir, LOCK_FILE);
	const mine: LockHolder = {
		pid: process.pid,
		host: hostname(),
		startedAt: new Date().toISOString(),
		purpose,
		token: randomBytes(16).toString('hex'),
		...(origin ? { origin } : {})
	};
	const content = JSON.stringify(mine) + '\n';
	try {
		writeFileSync(file, content, { flag: 'wx', mode: PRIVATE_FILE_MODE });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		const holder = liveHolder(file);
		if (holder) throw new DataDirLockedError(dataDir, holder);
		// Said, so that an operator who finds a crash in the log also finds that its lock was taken over.
		const stale = readHolder(file);
		log.warn('stale DATA_DIR lock taken over', {
			dataDir,
			previous: stale
				? { pid: stale.pid, host: stale.host, purpose: stale.purpose, startedAt: stale.startedAt }
				: null
		});
		const next = `${file}.${mine.token}`;
		writeFileSync(next, content, { mode: PRIVATE_FILE_MODE });
		renameSync(next, file);
		const after = readHolder(file);
		if (after?.token !== mine.token) throw new DataDirLockedError(dataDir, after ?? mine);
	}

	const stillMine = () => readHolder(file)?.token === mine.token;
	const heartbeat = setInterval(() => {
		try {
			const now = new Date();
			utimesSync(file, now, now);
		} catch {
			// Removed by hand: the next start will find no lock, and this process still works on.
		}
	}, HEARTBEAT_MS);
	heartbeat.unref();
	let released = false;
	return {
		file,
		release() {
			if (released) return;
			released = true;
			clearInterval(heartbeat);
			try {
				if (stillMine()) unlinkSync(file);
			} catch {
				// Already gone.
			}
		}
	};
}
