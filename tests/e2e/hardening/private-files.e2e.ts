/**
 * Files under DATA_DIR are private to the service whatever the umask (issue "Hardening", point 9), and the fs
 * driver's signed URLs answer with the object's stored metadata, as S3 does for a presigned GET (point 14).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/fixtures';
import { adminApiOn } from '../support/accounts';
import { startServer, type RunningServer } from '../support/server';
import { fixture } from '../../helpers/fixtures';

test.describe.configure({ mode: 'serial' });

let server: RunningServer;

test.beforeAll(async () => {
	const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'atelier-umask-')), 'data');
	// The embedded database, whatever DATABASE_URL the run uses: its files are the ones PGlite writes for us.
	server = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir }, { umask: '000', createDatabase: true });
});
test.afterAll(async () => {
	await server?.stop();
});

function walk(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? [full, ...walk(full)] : [full];
	});
}

test('everything under DATA_DIR belongs to the service alone, even started with umask 000', async () => {
	const admin = await adminApiOn(server.url);
	const upload = await admin.post('/api/admin/upload', {
		multipart: {
			file: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: readFileSync(fixture('Landscape_1.jpg')) }
		},
		headers: { origin: server.url }
	});
	expect(upload.status()).toBe(201);
	const { value } = await upload.json();
	expect((await admin.put('/api/admin/site-images', { data: { key: 'hero', url: value } })).status()).toBe(
		200
	);

	// A lead writes an e-mail into the outbox.
	const lead = await admin.post('/api/contact', {
		data: {
			name: 'Claire Dupont',
			email: 'claire@exemple.fr',
			message: 'Un message pour le test des droits.'
		}
	});
	expect(lead.status()).toBe(201);
	const outboxSize = () => {
		try {
			return readdirSync(path.join(server.dataDir, 'outbox')).length;
		} catch {
			return 0;
		}
	};
	// Written in the background: on a loaded 2-core machine, seconds after the answer.
	await expect.poll(outboxSize, { timeout: 15_000 }).toBeGreaterThan(0);

	// A file renamed into place while the walk reads (an image variant written in the background: `….tmp`, then
	// its name) is gone by the time it is looked at: only what still exists is checked.
	const modeOf = (entry: string): number | null => {
		try {
			return statSync(entry).mode;
		} catch {
			return null;
		}
	};
	const entries = [server.dataDir, ...walk(server.dataDir)].filter((entry) => modeOf(entry) !== null);
	expect(entries.some((e) => e.includes(`${path.sep}db${path.sep}`))).toBe(true);
	expect(entries.some((e) => e.endsWith('.webp'))).toBe(true);
	// What PGlite writes after start-up may be 0666 (its file layer ignores the umask), but it lies in the
	// database folder, which nobody else may enter: check every entry, and that folder itself.
	const dbDir = path.join(server.dataDir, 'db');
	expect(statSync(dbDir).mode & 0o077).toBe(0);
	const open = entries.filter(
		(entry) => ((modeOf(entry) ?? 0) & 0o077) !== 0 && !entry.startsWith(dbDir + path.sep)
	);
	const dbFiles = entries.filter((entry) => entry.startsWith(dbDir + path.sep));
	expect(dbFiles.filter((entry) => ((modeOf(entry) ?? 0o777) & 0o077) === 0).length).toBeGreaterThan(
		dbFiles.length / 2
	);
	expect(
		open.map(
			(entry) => `${path.relative(server.dataDir, entry)} ${((modeOf(entry) ?? 0) & 0o777).toString(8)}`
		)
	).toEqual([]);

	// Point 14: the fs driver's signed URL carries the stored Cache-Control and type.
	const images = await (await admin.get('/api/admin/site-images')).json();
	const hero = images.images.find((image: { key: string }) => image.key === 'hero');
	const signed = await fetch(new URL(hero.previewUrl, server.url));
	expect(signed.status).toBe(200);
	expect(signed.headers.get('content-type')).toBe('image/webp');
	expect(signed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
	await admin.dispose();
});
