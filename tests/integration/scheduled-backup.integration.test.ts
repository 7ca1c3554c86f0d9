/**
 * Scheduled backups (issue « Backups », points 1–5): one slot's run writes an age-encrypted archive that the server
 * cannot read again, reads it back, proves it restorable weekly, puts it in the folder and the S3 bucket of the
 * backups, keeps BACKUP_KEEP of them; one instance of several runs a slot; a failure leaves nothing new, removes
 * nothing, is recorded and e-mailed to every admin. On PostgreSQL when DATABASE_URL is set, else on PGlite.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openArchive, ArchiveKeyError } from '../../src/lib/server/backup/encryption';
import { restoreBackup, verifyBackup } from '../../src/lib/server/backup/restore';
import {
	BACKUP_LOCK_ID,
	reportInterruptedBackups,
	runScheduledBackup,
	type ScheduleDeps
} from '../../src/lib/server/backup/schedule';
import { listBackupRuns } from '../../src/lib/server/backup/queries';
import { loadConfig } from '../../src/lib/server/config';
import * as schema from '../../src/lib/server/db/schema';
import { smtpTransport } from '../../src/lib/server/mail';
import { FsStorage } from '../../src/lib/server/storage';
import { hashPassword } from '../../src/lib/server/auth/password';
import { createTestDatabase, serverUrl, type TestDatabase } from '../helpers/database';
import { dumpTables, seedDataset } from '../helpers/dataset';
import { startS3, type RunningS3 } from '../helpers/s3';
import { startSmtp, type RunningSmtp } from '../helpers/smtp';

const SECRET = 'secret-de-signature-'.padEnd(64, 'x');

let work: string;
let database: TestDatabase;
let storage: FsStorage;
let s3: RunningS3;
let smtp: RunningSmtp;
let identity: string;
let recipient: string;

beforeAll(async () => {
	work = await mkdtemp(path.join(tmpdir(), 'atelier-schedule-test-'));
	database = await createTestDatabase();
	storage = new FsStorage({
		root: path.join(work, 'storage'),
		bucket: 'private-gallery',
		origin: new URL('https://atelier.test'),
		secret: SECRET
	});
	await seedDataset(database.db, storage);
	// A second admin: every admin is told of a failure.
	await database.db.insert(schema.users).values({
		email: 'associe@exemple.fr',
		name: 'Associé',
		passwordHash: await hashPassword('un mot de passe assez long'),
		isAdmin: true
	});
	s3 = await startS3();
	smtp = await startSmtp();
	identity = await generateX25519Identity();
	recipient = await identityToRecipient(identity);
});
afterAll(async () => {
	await database?.dispose();
	await s3?.close();
	await smtp?.close();
	await rm(work, { recursive: true, force: true });
});

function depsWith(env: Record<string, string>): ScheduleDeps {
	const config = loadConfig({
		DATA_DIR: path.join(work, 'data'),
		SIGNING_SECRET: SECRET,
		ORIGIN: 'https://atelier.test',
		BACKUP_SCHEDULE: '0 3 * * *',
		BACKUP_DIR: path.join(work, 'backups'),
		BACKUP_S3_ENDPOINT: s3.endpoint.href,
		BACKUP_S3_BUCKET: 'atelier-backups',
		BACKUP_S3_ACCESS_KEY: s3.accessKey,
		BACKUP_S3_SECRET_KEY: s3.secretKey,
		BACKUP_AGE_RECIPIENTS: recipient,
		...env
	});
	return {
		database,
		storage,
		config,
		mail: { db: database.db, transport: smtpTransport(smtp.url), from: 'Atelier <no-reply@atelier.test>' }
	};
}

const keysInS3 = () => s3.keys('atelier-backups');

/** This installation's scheduled backup of a slot (`2026-11-26T02-30-00`), by name. */
const ours = async (stamp: string) =>
	`atelier-scheduled-${(await database.db.select().from(schema.installation))[0]!.id}-${stamp}Z.tar.gz.age`;

const slot = (minutesAgo: number) => new Date(Date.UTC(2026, 10, 26, 3) - minutesAgo * 60_000);
const folderBackups = async () =>
	(await readdir(path.join(work, 'backups'))).filter((name) => name.startsWith('atelier-scheduled-')).sort();

describe('scheduled backups', () => {
	it('writes an archive only the key opens, to the folder and to S3, proven restorable, into PostgreSQL too', async () => {
		const deps = depsWith({ BACKUP_KEEP: '2' });
		const outcome = await runScheduledBackup(deps, slot(30));
		expect(outcome).toMatchObject({ status: 'ok', verified: 'restored', fileName: expect.any(String) });
		if (outcome.status !== 'ok') return;
		expect(outcome.fileName).toMatch(/^atelier-scheduled-[0-9a-f]{12}-2026-11-26T02-30-00Z\.tar\.gz\.age$/);
		expect(outcome.fileName).toBe(await ours('2026-11-26T02-30-00'));
		expect(await folderBackups()).toEqual([outcome.fileName]);
		expect(await keysInS3()).toEqual([`atelier/${outcome.fileName}`]);
		const file = path.join(work, 'backups', outcome.fileName);

		// age: the configured key's stanza and the throw-away one it was read back with; nothing readable inside.
		const bytes = await readFile(file);
		expect(bytes.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
		expect(bytes.toString('latin1').match(/\n-> X25519 /g)).toHaveLength(2);
		expect(bytes.includes(Buffer.from('patronne@exemple.fr'))).toBe(false);
		// The server kept no key: it made none of its own, and no other key opens the file.
		const stranger = await generateX25519Identity();
		expect(existsSync(path.join(work, 'data', 'backup-key.txt'))).toBe(false);
		await expect(
			verifyBackup(() =>
				openArchive(file, () => createReadStream(file), {
					identities: [stranger],
					allowPlain: false
				})
			)
		).rejects.toThrow(ArchiveKeyError);

		// The standard tool opens it with the key, when this machine has it (CI installs it).
		if (existsSync('/usr/bin/age')) {
			const keyFile = path.join(work, 'key.txt');
			await writeFile(keyFile, `${identity}\n`, { mode: 0o600 });
			const listed = spawnSync('sh', ['-c', `age -d -i "${keyFile}" "${file}" | tar -tzf -`], {
				encoding: 'utf8'
			});
			expect(listed.status, listed.stderr).toBe(0);
			expect(listed.stdout).toMatch(/^tables\/users\.(copy|ndjson)$/m);
			expect(listed.stdout.trim().split('\n').at(-1)).toBe('manifest.json');
		}

		// Restored with the key into an empty database (a fresh PostgreSQL one when DATABASE_URL is set): the same rows.
		const target = await createTestDatabase({ migrate: false });
		try {
			const open = () =>
				openArchive(file, () => createReadStream(file), { identities: [identity], allowPlain: false });
			const verified = await verifyBackup(open);
			await restoreBackup(open, verified, {
				database: target,
				storage: new FsStorage({
					root: path.join(work, 'restored-storage'),
					bucket: 'private-gallery',
					origin: new URL('https://atelier.test'),
					secret: SECRET
				}),
				dataDir: path.join(work, 'restored-data')
			});
			const restored = await dumpTables(target.db);
			const source = await dumpTables(database.db);
			expect(restored.users).toEqual(source.users);
			expect(restored.leads).toEqual(source.leads);
		} finally {
			await target.dispose();
		}

		const [run] = await listBackupRuns(database.db, 1);
		expect(run).toMatchObject({
			trigger: 'schedule',
			status: 'ok',
			fileName: outcome.fileName,
			bytes: bytes.length,
			verified: 'restored',
			encrypted: true,
			destinations: ['dossier du serveur', 'stockage S3 (atelier-backups)']
		});
		const trail = await database.db.select().from(schema.auditEvents);
		expect(trail.filter((row) => row.kind === 'backup.scheduled')).toHaveLength(1);
	});

	it('keeps exactly BACKUP_KEEP in each place, the newest ones, and restores weekly only', async () => {
		const deps = depsWith({ BACKUP_KEEP: '2' });
		const outcomes = [];
		for (const minutesAgo of [20, 10, 0]) outcomes.push(await runScheduledBackup(deps, slot(minutesAgo)));
		expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok', 'ok']);
		// Restored into a throw-away database once a week: the first run did it; these were read back.
		expect(outcomes.map((o) => (o.status === 'ok' ? o.verified : null))).toEqual([
			'read-back',
			'read-back',
			'read-back'
		]);
		const newest = [await ours('2026-11-26T02-50-00'), await ours('2026-11-26T03-00-00')];
		expect(await folderBackups()).toEqual(newest);
		expect(await keysInS3()).toEqual(newest.map((name) => `atelier/${name}`));
		// A hand-made backup in the same folder is not the schedule's to remove.
		await writeFile(path.join(work, 'backups', 'atelier-backup-2026-01-01T00-00-00Z.tar.gz.age'), 'mine');
		expect((await runScheduledBackup(deps, slot(-10))).status).toBe('ok');
		expect(await readdir(path.join(work, 'backups'))).toContain(
			'atelier-backup-2026-01-01T00-00-00Z.tar.gz.age'
		);
		expect(await folderBackups()).toHaveLength(2);
	});

	it('runs a slot once: a slot done is skipped, and nothing runs while another instance holds the lock', async () => {
		const deps = depsWith({ BACKUP_KEEP: '2' });
		expect(await runScheduledBackup(deps, slot(-10))).toEqual({
			status: 'skipped',
			reason: 'another instance made this backup'
		});
		if (!serverUrl) return; // one process holds PGlite: there is no other instance
		// Another instance in the middle of its backup: it holds the lock on its own connection.
		const other = postgres(database.url!, { max: 1, onnotice: () => {} });
		try {
			await other`select pg_advisory_lock(${BACKUP_LOCK_ID.toString()}::bigint)`;
			const before = await listBackupRuns(database.db, 100);
			expect(await runScheduledBackup(deps, slot(-20))).toEqual({
				status: 'skipped',
				reason: 'another instance is backing up'
			});
			expect(await listBackupRuns(database.db, 100)).toHaveLength(before.length);
		} finally {
			await other.end();
		}
	});

	it.runIf(serverUrl)(
		'a burst of instances on one slot: one backs up, the others skip, one row and one file',
		async () => {
			// Each instance its own copy of the module (its own "running here" flag), as separate servers have.
			const instances = [];
			for (let i = 0; i < 4; i++) {
				vi.resetModules();
				instances.push(
					(await import('../../src/lib/server/backup/schedule')) as typeof import('../../src/lib/server/backup/schedule')
				);
			}
			const deps = depsWith({ BACKUP_KEEP: '10' });
			const burst = slot(-40);
			const outcomes = await Promise.all(
				instances.flatMap((instance) => [1, 2].map(() => instance.runScheduledBackup(deps, burst)))
			);
			expect(outcomes.filter((o) => o.status === 'ok')).toHaveLength(1);
			expect(outcomes.filter((o) => o.status === 'skipped')).toHaveLength(outcomes.length - 1);
			const name = await ours('2026-11-26T03-40-00');
			const runs = (await listBackupRuns(database.db, 100)).filter((r) => r.fileName === name);
			expect(runs).toEqual([expect.objectContaining({ status: 'ok' })]);
			expect((await folderBackups()).filter((f) => f === name)).toHaveLength(1);
		}
	);

	it('a failure leaves nothing new, removes nothing, and is recorded and e-mailed to every admin', async () => {
		const before = await folderBackups();
		// The backups' S3 server is down (nothing listens on its port).
		const deps = depsWith({ BACKUP_KEEP: '1', BACKUP_S3_ENDPOINT: 'http://127.0.0.1:9' });
		const mails = smtp.received.length;
		const outcome = await runScheduledBackup(deps, slot(-30));
		expect(outcome.status).toBe('failed');
		expect(await folderBackups()).toEqual(before);
		expect((await readdir(path.join(work, 'backups'))).filter((n) => /\.(partial|pending)$/.test(n))).toEqual(
			[]
		);
		const [run] = await listBackupRuns(database.db, 1);
		expect(run).toMatchObject({
			status: 'failed',
			trigger: 'schedule',
			error: expect.stringMatching(/ECONNREFUSED/)
		});
		const trail = await database.db.select().from(schema.auditEvents);
		expect(trail.filter((row) => row.kind === 'backup.scheduled_failed')).toHaveLength(1);

		const received = await smtp.waitFor(mails + 2, 10_000);
		const failures = received
			.slice(mails)
			.filter((m) => m.parsed.subject === 'La sauvegarde automatique du site a échoué');
		expect(failures.flatMap((m) => m.envelopeTo).sort()).toEqual([
			'associe@exemple.fr',
			'patronne@exemple.fr'
		]);
		expect(failures[0]!.parsed.text).toContain('ECONNREFUSED');
		expect(failures[0]!.parsed.text).toContain('Dernière sauvegarde réussie');
		expect(failures[0]!.parsed.text).toContain('https://atelier.test/admin/sauvegarde');
	});
});

describe('what the operator is told (issue « Every door holds », point 5)', () => {
	it('a run that a stop cut short is recorded and e-mailed to every admin at the next start, like a failed one', async () => {
		const [cut] = await database.db
			.insert(schema.backupRuns)
			.values({ trigger: 'schedule', status: 'running', fileName: 'atelier-scheduled-coupee.tar.gz.age' })
			.returning();
		const mails = smtp.received.length;
		expect(await reportInterruptedBackups(depsWith({}))).toBe(1);
		const [row] = (await listBackupRuns(database.db, 20)).filter((run) => run.id === cut!.id);
		expect(row).toMatchObject({ status: 'failed', error: expect.stringMatching(/^interrompue/) });
		const received = await smtp.waitFor(mails + 2, 10_000);
		const told = received
			.slice(mails)
			.filter((m) => m.parsed.subject === 'La sauvegarde automatique du site a échoué');
		expect(told.flatMap((m) => m.envelopeTo).sort()).toEqual(['associe@exemple.fr', 'patronne@exemple.fr']);
		expect(told[0]!.parsed.text).toContain('interrompue : le serveur s’est arrêté pendant la sauvegarde');
		// Told once: the next start finds nothing left running.
		expect(await reportInterruptedBackups(depsWith({}))).toBe(0);
	});

	it.runIf(serverUrl)(
		'instances starting at once report an interrupted run once: one e-mail an admin, one audit row',
		async () => {
			const [cut] = await database.db
				.insert(schema.backupRuns)
				.values({ trigger: 'schedule', status: 'running', fileName: 'atelier-scheduled-rafale.tar.gz.age' })
				.returning();
			// Each instance its own copy of the module (its own "running here" flag), as separate servers have.
			const instances = [];
			for (let i = 0; i < 4; i++) {
				vi.resetModules();
				instances.push(
					(await import('../../src/lib/server/backup/schedule')) as typeof import('../../src/lib/server/backup/schedule')
				);
			}
			const mails = smtp.received.length;
			const reported = await Promise.all(
				instances.flatMap((instance) => [1, 2].map(() => instance.reportInterruptedBackups(depsWith({}))))
			);
			expect(reported.reduce((sum, n) => sum + n, 0)).toBe(1);
			await smtp.waitFor(mails + 2, 10_000);
			await new Promise((resolve) => setTimeout(resolve, 500));
			expect(smtp.received.length - mails).toBe(2);
			const trail = await database.db.select().from(schema.auditEvents);
			expect(trail.filter((row) => row.subjectId === cut!.id)).toHaveLength(1);
		}
	);

	const tinyDisk = (() => {
		if (process.getuid?.() !== 0) return null;
		const dir = mkdtempSync(path.join(tmpdir(), 'atelier-full-backups-'));
		const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir]);
		return mounted.status === 0 ? dir : null;
	})();
	afterAll(() => {
		if (!tinyDisk) return;
		spawnSync('umount', ['-l', tinyDisk]);
		rmSync(tinyDisk, { recursive: true, force: true });
	});

	it('a backup that meets a full disk says « espace disque plein » on the page, in the log and in the e-mail', async () => {
		if (!tinyDisk) return void console.warn('skipped: needs root to mount a small tmpfs for BACKUP_DIR');
		// All the disk but a few kilobytes taken: the archive cannot fit.
		const free = Number(
			spawnSync('df', ['--output=avail', '-B1', tinyDisk], { encoding: 'utf8' })
				.stdout.trim()
				.split('\n')
				.at(-1)
		);
		expect(spawnSync('fallocate', ['-l', String(free - 8192), path.join(tinyDisk, 'filler')]).status).toBe(0);
		const deps = depsWith({ BACKUP_DIR: tinyDisk });
		const mails = smtp.received.length;
		const errors: string[] = [];
		const spy = vi
			.spyOn(console, 'error')
			.mockImplementation((line: unknown) => void errors.push(String(line)));
		let outcome;
		try {
			outcome = await runScheduledBackup(deps, slot(-90));
		} finally {
			spy.mockRestore();
		}
		expect(outcome).toMatchObject({ status: 'failed', error: expect.stringMatching(/^espace disque plein/) });
		const [run] = await listBackupRuns(database.db, 1);
		expect(run!.error).toMatch(/^espace disque plein/);
		expect(errors.join('\n')).toContain('espace disque plein');
		// Nothing half-written stays on the full disk.
		expect(await readdir(tinyDisk)).toEqual(['filler']);
		const received = await smtp.waitFor(mails + 2, 10_000);
		expect(
			received
				.slice(mails)
				.map((m) => m.parsed.text)
				.join('\n')
		).toContain('espace disque plein');
	});
});

describe('two sites given one place, and names already taken', () => {
	it('a second installation given the same folder and bucket is refused with what to do; the first’s backups stay', async () => {
		const before = { folder: await folderBackups(), s3: await keysInS3() };
		expect(before.folder.length).toBeGreaterThan(0);
		const otherSite = await createTestDatabase();
		try {
			const deps = { ...depsWith({ BACKUP_KEEP: '1' }), database: otherSite };
			deps.mail = { ...deps.mail, db: otherSite.db };
			const outcome = await runScheduledBackup(deps, slot(-50));
			expect(outcome).toMatchObject({
				status: 'failed',
				error: expect.stringMatching(/autre installation \([0-9a-f]{12}\).*propre BACKUP_DIR/)
			});
			// Nothing written, nothing removed, in either place.
			expect(await folderBackups()).toEqual(before.folder);
			expect(await keysInS3()).toEqual(before.s3);
			expect(
				(await readdir(path.join(work, 'backups'))).filter((n) => /\.(partial|pending)$/.test(n))
			).toEqual([]);
		} finally {
			await otherSite.dispose();
		}
		// The first site goes on as before.
		expect((await runScheduledBackup(depsWith({ BACKUP_KEEP: '10' }), slot(-60))).status).toBe('ok');
	});

	it('writes over nothing: a file already under the slot’s name fails the run everywhere, and stays as it was', async () => {
		const name = await ours('2026-11-26T04-10-00');
		await writeFile(path.join(work, 'backups', name), 'un autre fichier');
		const s3Before = await keysInS3();
		const outcome = await runScheduledBackup(depsWith({ BACKUP_KEEP: '10' }), slot(-70));
		expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('porte déjà le nom') });
		expect(await readFile(path.join(work, 'backups', name), 'utf8')).toBe('un autre fichier');
		// Not sent to S3 either: a backup is in every place or in none.
		expect(await keysInS3()).toEqual(s3Before);
		await rm(path.join(work, 'backups', name));
	});

	it('retention removes only this installation’s files: one named before installations had ids stays', async () => {
		const legacy = 'atelier-scheduled-2026-11-20T03-00-00Z.tar.gz.age';
		await writeFile(path.join(work, 'backups', legacy), 'avant la 0.6.0');
		expect((await runScheduledBackup(depsWith({ BACKUP_KEEP: '1' }), slot(-80))).status).toBe('ok');
		const left = await folderBackups();
		expect(left).toEqual([legacy, await ours('2026-11-26T04-20-00')].sort());
	});
});
