/**
 * The schedule as a deployment runs it (issue « Backups », done-when): the built server with BACKUP_SCHEDULE every
 * two seconds writes encrypted archives into its folder and the backups' own S3 bucket (s3rver), keeps exactly
 * BACKUP_KEEP of them, and the newest restores with the key (`npm run restore -- --identity`) into an empty database
 * — PostgreSQL in the drivers' run — where the admin signs in. The dashboard warns until a backup went through.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { startS3 } from '../../helpers/s3';
import { sessionCookieFor } from '../support/accounts';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { serverEntry, startIsolatedServer } from '../support/server';

const admin = { email: 'horaire@exemple.fr', password: 'une phrase de passe solide', name: 'Horaire' };

test(
	'the schedule backs up by itself, keeps BACKUP_KEEP in the folder and S3, and the newest restores',
	{
		tag: '@drivers'
	},
	async ({ page }) => {
		test.setTimeout(180_000);
		const work = mkdtempSync(path.join(tmpdir(), 'atelier-schedule-e2e-'));
		const s3 = await startS3();
		const identity = await generateX25519Identity();
		const keyFile = path.join(work, 'backup-key.txt');
		writeFileSync(keyFile, `# kept away from the server\n${identity}\n`, { mode: 0o600 });
		const folder = path.join(work, 'backups');
		const server = await startIsolatedServer({
			SIGNING_SECRET: '',
			BACKUP_SCHEDULE: '*/2 * * * * *',
			BACKUP_KEEP: '2',
			BACKUP_DIR: folder,
			BACKUP_S3_ENDPOINT: s3.endpoint.href,
			BACKUP_S3_BUCKET: 'sauvegardes',
			BACKUP_S3_PREFIX: 'site/',
			BACKUP_S3_ACCESS_KEY: s3.accessKey,
			BACKUP_S3_SECRET_KEY: s3.secretKey,
			BACKUP_AGE_RECIPIENTS: await identityToRecipient(identity)
		});
		let stopped = false;
		try {
			expect(
				(
					await fetch(`${server.url}/api/admin/setup`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify(admin)
					})
				).status
			).toBe(201);
			const cookie = await sessionCookieFor(server.url, admin);
			const done = () => server.output().match(/"message":"scheduled backup"/g)?.length ?? 0;
			// Liveness all along, backups or not: the process lives (readiness says the rest).
			const health: number[] = [];
			let polling = true;
			const poller = (async () => {
				while (polling) {
					health.push((await fetch(`${server.url}/healthz`)).status);
					await new Promise((resolve) => setTimeout(resolve, 20));
				}
			})();
			await expect.poll(done, { timeout: 90_000, intervals: [500] }).toBeGreaterThanOrEqual(4);
			polling = false;
			await poller;
			expect(health.length).toBeGreaterThan(20);
			expect(health.filter((status) => status !== 200)).toEqual([]);

			// The dashboard no longer warns; the page lists them in words, verified.
			await page
				.context()
				.addCookies([
					{ name: cookie.split('=')[0]!, value: cookie.slice(cookie.indexOf('=') + 1), url: server.url }
				]);
			await page.goto(`${server.url}/admin`);
			await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
			await expect(page.getByText('Pas de sauvegarde récente.')).toHaveCount(0);
			for (const width of [360, 1280]) {
				await page.setViewportSize({ width, height: 900 });
				await page.goto(`${server.url}/admin/sauvegarde`);
				// The schedule keeps running every two seconds: the newest may be « En cours »; the newest done is checked.
				const runs = page
					.getByRole('region', { name: 'Dernières sauvegardes' })
					.getByRole('listitem')
					.filter({ hasNotText: 'En cours' });
				await expect(runs.first()).toContainText('Automatique');
				await expect(runs.first()).toContainText('Réussie');
				await expect(runs.first()).toContainText('dossier du serveur, stockage S3 (sauvegardes), chiffrée');
				await expect(
					page.getByText(/remise en place dans une base d’essai : tout y était/).first()
				).toBeVisible();
				await expect(page.getByText(/Le site est sauvegardé selon le calendrier/)).toBeVisible();
				// Its key is not on the server: no warning about it.
				await expect(page.getByText('La clé qui ouvre les sauvegardes est sur ce serveur.')).toHaveCount(0);
				await expectNoHorizontalScroll(page);
				await page.screenshot({
					path: test.info().outputPath(`sauvegarde-auto-${width}.png`),
					fullPage: true
				});
			}
			await expectNoAxeViolation(page);
			expect(await server.stop()).toBe(0);
			stopped = true;

			// Exactly BACKUP_KEEP in each place, the same two, nothing half-written; the server kept no key.
			const inFolder = readdirSync(folder).sort();
			expect(inFolder).toHaveLength(2);
			for (const name of inFolder)
				expect(name).toMatch(/^atelier-scheduled-[0-9a-f]{12}-[\dT-]+Z\.tar\.gz\.age$/);
			const inS3 = await s3.keys('sauvegardes');
			expect(inS3).toEqual(inFolder.map((name) => `site/${name}`));
			expect(existsSync(path.join(server.dataDir, 'backup-key.txt'))).toBe(false);

			// The newest, restored with the key into an empty database: the admin signs in on it.
			const { createEmptyPostgresDatabase, serverUrl } = await import('../../helpers/database');
			const database = serverUrl ? await createEmptyPostgresDatabase() : null;
			const target = path.join(work, 'restored');
			const env = { ...process.env, DATABASE_URL: database?.url ?? '', SIGNING_SECRET: '', DATA_DIR: target };
			const restore = (args: string[]) =>
				spawnSync(process.execPath, [path.join(path.dirname(serverEntry), 'restore.js'), ...args], {
					env,
					encoding: 'utf8',
					timeout: 60_000
				});
			const newest = path.join(folder, inFolder.at(-1)!);
			const keyless = restore([newest]);
			expect(keyless.status).toBe(1);
			expect(keyless.stderr).toContain('--identity');
			const restored = restore([newest, '--identity', keyFile]);
			expect(restored.status, restored.stderr).toBe(0);
			expect(restored.stderr).toContain(`Restored into ${serverUrl ? 'postgres' : 'pglite'}`);
			const next = await startIsolatedServer({
				DATABASE_URL: database?.url ?? '',
				SIGNING_SECRET: '',
				DATA_DIR: target
			});
			try {
				await sessionCookieFor(next.url, admin);
			} finally {
				expect(await next.stop()).toBe(0);
				await database?.drop();
			}
		} finally {
			if (!stopped) await server.stop();
			await s3.close();
		}
	}
);

test('the dashboard warns while no backup went through', async ({ page }) => {
	const server = await startIsolatedServer({ SIGNING_SECRET: '' });
	try {
		const setup = await fetch(`${server.url}/api/admin/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(admin)
		});
		expect(setup.status).toBe(201);
		const cookie = await sessionCookieFor(server.url, admin);
		await page
			.context()
			.addCookies([
				{ name: cookie.split('=')[0]!, value: cookie.slice(cookie.indexOf('=') + 1), url: server.url }
			]);
		await page.goto(`${server.url}/admin`);
		const warning = page.getByRole('alert').filter({ hasText: 'Pas de sauvegarde récente.' });
		await expect(warning).toContainText('Aucune sauvegarde réussie n’a encore été faite');
		await expect(warning.getByRole('link', { name: 'Voir les sauvegardes' })).toHaveAttribute(
			'href',
			'/admin/sauvegarde'
		);
		for (const width of [360, 1280]) {
			await page.setViewportSize({ width, height: 800 });
			await expectNoHorizontalScroll(page);
			await page.screenshot({ path: test.info().outputPath(`tableau-de-bord-${width}.png`) });
		}
		await expectNoAxeViolation(page);
	} finally {
		expect(await server.stop()).toBe(0);
	}
});
