/**
 * Backup and restore as an operator meets them (issue "Self-hosting, part 2", point 2): on the embedded database
 * the running server holds DATA_DIR, so `npm run backup` says to use the admin page « Sauvegarde », which streams
 * the archive; `npm run restore` puts it into an empty DATA_DIR, refuses a second time without --force, and the
 * restored server signs its admin in and serves the same image.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { sessionCookieFor } from '../support/accounts';
import { expectNoAxeViolation, expectNoHorizontalScroll } from '../support/a11y';
import { freePort, serverEntry, startServer } from '../support/server';

test.describe.configure({ mode: 'serial' });

const admin = { email: 'sauvegarde@exemple.fr', password: 'une phrase de passe solide', name: 'Sauvegarde' };
const command = (name: string, args: string[], env: Record<string, string>, input?: string) =>
	spawnSync(process.execPath, [path.join(path.dirname(serverEntry), `${name}.js`), ...args], {
		env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', ...env },
		encoding: 'utf8',
		timeout: 60_000,
		input
	});

const signIn = (url: string) => sessionCookieFor(url, admin);

test(
	'the admin page streams the backup; restore fills an empty DATA_DIR and the site is as it was',
	{ tag: '@drivers' },
	async ({ page }) => {
		test.setTimeout(180_000);
		const work = mkdtempSync(path.join(tmpdir(), 'atelier-backup-e2e-'));
		const source = await startServer({ DATABASE_URL: '', SIGNING_SECRET: '' });
		expect(
			(
				await fetch(`${source.url}/api/admin/setup`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(admin)
				})
			).status
		).toBe(201);
		const cookie = await signIn(source.url);
		const form = new FormData();
		const photo = readFileSync(path.resolve('tests/fixtures/images/Landscape_2.jpg'));
		form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
		const upload = await fetch(`${source.url}/api/admin/upload`, {
			method: 'POST',
			headers: { cookie, origin: source.url },
			body: form
		});
		expect(upload.status).toBe(201);
		const { value } = (await upload.json()) as { value: string };
		const save = await fetch(`${source.url}/api/admin/site-images`, {
			method: 'PUT',
			headers: { cookie, origin: source.url, 'content-type': 'application/json' },
			body: JSON.stringify({ key: 'hero', url: value })
		});
		expect(save.status).toBe(200);
		const hero = Buffer.from(await (await fetch(`${source.url}/api/img/hero`)).arrayBuffer());

		// The command cannot open a DATA_DIR the server holds: it says so, and where the same archive is.
		const held = command('backup', [path.join(work, 'cli.tar.gz')], { DATA_DIR: source.dataDir });
		expect(held.status).toBe(1);
		expect(held.stderr).toContain(`DATA_DIR ${source.dataDir} is in use`);
		// The server's own address (written in the lock), not this shell's default port.
		expect(held.stderr).toContain(`${source.url}/admin/sauvegarde`);
		expect(existsSync(path.join(work, 'cli.tar.gz'))).toBe(false);

		// Only an admin gets it.
		const anonymous = await fetch(`${source.url}/admin/sauvegarde/archive`, { redirect: 'manual' });
		expect([303, 401, 403]).toContain(anonymous.status);

		// It opens every account: the admin confirms their password first (issue "Trust, part 2", point 6).
		const unconfirmed = await fetch(`${source.url}/admin/sauvegarde/archive`, {
			headers: { cookie },
			redirect: 'manual'
		});
		expect(unconfirmed.status).toBe(303);
		expect(unconfirmed.headers.get('location')).toMatch(/^\/admin\/confirmer\?/);
		const confirmed = await fetch(`${source.url}/admin/confirmer?redirectTo=%2Fadmin%2Fsauvegarde`, {
			method: 'POST',
			headers: {
				cookie,
				origin: source.url,
				accept: 'text/html',
				'content-type': 'application/x-www-form-urlencoded'
			},
			body: new URLSearchParams({ secret: admin.password }),
			redirect: 'manual'
		});
		expect(confirmed.status).toBe(303);
		const download = await fetch(`${source.url}/admin/sauvegarde/archive`, { headers: { cookie } });
		expect(download.status).toBe(200);
		expect(download.headers.get('content-type')).toBe('application/octet-stream');
		expect(download.headers.get('content-disposition')).toMatch(
			/^attachment; filename="atelier-backup-[\dT-]+Z\.tar\.gz\.age"$/
		);
		// Encrypted with age to the installation's key (none configured): nothing of it reads as a tar.gz.
		const archive = path.join(work, 'site.tar.gz.age');
		writeFileSync(archive, Buffer.from(await download.arrayBuffer()));
		const sealed = readFileSync(archive);
		expect(sealed.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
		expect(sealed.toString('latin1')).toMatch(/\n-> X25519 /);
		expect(sealed.includes(Buffer.from(admin.email))).toBe(false);
		const key = path.join(source.dataDir, 'backup-key.txt');
		expect(statSync(key).mode & 0o777).toBe(0o600);

		// With a passphrase instead: the form posts it, the file is sealed with scrypt as age does it.
		const tooShort = await fetch(`${source.url}/admin/sauvegarde/archive`, {
			method: 'POST',
			headers: { cookie, origin: source.url, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ passphrase: 'court', confirmation: 'court' }),
			redirect: 'manual'
		});
		expect(tooShort.status).toBe(303);
		expect(tooShort.headers.get('location')).toContain('phrase=courte');
		const passphrase = 'cheval agrafe batterie correct';
		const withPassphrase = await fetch(`${source.url}/admin/sauvegarde/archive`, {
			method: 'POST',
			headers: { cookie, origin: source.url, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ passphrase, confirmation: passphrase })
		});
		expect(withPassphrase.status).toBe(200);
		const phraseArchive = path.join(work, 'phrase.tar.gz.age');
		writeFileSync(phraseArchive, Buffer.from(await withPassphrase.arrayBuffer()));
		expect(readFileSync(phraseArchive).toString('latin1')).toMatch(
			/^age-encryption\.org\/v1\n-> scrypt \S+ 16\n/
		);

		// The page tells what it holds and when the last one was made; readable at both widths.
		await page
			.context()
			.addCookies([
				{ name: cookie.split('=')[0]!, value: cookie.slice(cookie.indexOf('=') + 1), url: source.url }
			]);
		for (const width of [360, 1280]) {
			await page.setViewportSize({ width, height: 900 });
			await page.goto(`${source.url}/admin/sauvegarde`);
			await expect(page.getByRole('heading', { level: 1, name: 'Sauvegarde' })).toBeVisible();
			// The two downloads, in words: when, how, where, encrypted, not verified (nobody read them back).
			const runs = page.getByRole('region', { name: 'Dernières sauvegardes' }).getByRole('listitem');
			await expect(runs).toHaveCount(2);
			await expect(runs.first()).toContainText('Téléchargée');
			await expect(runs.first()).toContainText('Réussie');
			await expect(runs.first()).toContainText('téléchargement, chiffrée — non vérifiée');
			// No schedule here: the page says so, without a command an office manager would not run.
			await expect(page.getByText('Les sauvegardes automatiques ne sont pas activées.')).toBeVisible();
			await expect(page.locator('main')).not.toContainText('npm');
			await expect(page.locator('main')).not.toContainText('Lignes en base');
			await expect(page.getByRole('link', { name: 'Télécharger' })).toBeVisible();
			await expect(page.getByLabel('Phrase de passe', { exact: true })).toBeVisible();
			await expectNoHorizontalScroll(page);
			await page.screenshot({ path: test.info().outputPath(`sauvegarde-${width}.png`), fullPage: true });
		}
		await expectNoAxeViolation(page);
		expect(await source.stop()).toBe(0);

		// Restore into a DATA_DIR of its own. Without the key, refused, and nothing is left behind.
		const target = path.join(work, 'restored');
		const keyless = command('restore', [archive], { DATA_DIR: target });
		expect(keyless.status).toBe(1);
		expect(keyless.stderr).toContain(
			'encrypted to public keys: give the matching private key with --identity'
		);
		expect(existsSync(target)).toBe(false);
		// With the installation's key: the first time it works, the second it refuses without --force.
		const restored = command('restore', [archive, '--identity', key], { DATA_DIR: target });
		expect(restored.stderr).toContain('checksums verified');
		expect(restored.status, restored.stderr).toBe(0);
		const again = command('restore', [archive, '--identity', key], { DATA_DIR: target });
		expect(again.status).toBe(1);
		expect(again.stderr).toMatch(
			/The target is not empty \(rows: .*users 1; \d+ objects in the bucket private-gallery\)/
		);
		expect(again.stderr).toContain('--force');
		expect(command('restore', [archive, '--identity', key, '--force'], { DATA_DIR: target }).status).toBe(0);

		// The passphrase's archive: a wrong one is refused, the right one (read from standard input) restores.
		const elsewhere = path.join(work, 'from-passphrase');
		const wrong = command('restore', [phraseArchive], { DATA_DIR: elsewhere }, 'pas la bonne phrase\n');
		expect(wrong.status).toBe(1);
		expect(wrong.stderr).toContain('the passphrase does not open this archive. Nothing was changed.');
		const right = command('restore', [phraseArchive], { DATA_DIR: elsewhere }, `${passphrase}\n`);
		expect(right.status, right.stderr).toBe(0);

		// A stopped server's DATA_DIR can be backed up by the command, into a folder, under a dated name.
		const folder = path.join(work, 'backups');
		spawnSync('mkdir', [folder]);
		const cli = command('backup', [folder], { DATA_DIR: target });
		expect(cli.status, cli.stderr).toBe(0);
		expect(readdirSync(folder)).toEqual([expect.stringMatching(/^atelier-backup-.*\.tar\.gz\.age$/)]);
		expect(cli.stderr).toContain('checked whole as it was written');
		expect(cli.stderr).toContain(`this installation's own, ${path.join(target, 'backup-key.txt')}`);

		const next = await startServer({ DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: target });
		try {
			const nextCookie = await signIn(next.url);
			const served = Buffer.from(await (await fetch(`${next.url}/api/img/hero`)).arrayBuffer());
			expect(served.equals(hero)).toBe(true);
			// The trail brought back by the restore ends with the restores and the backup the commands made.
			const trail = await (
				await fetch(`${next.url}/admin/activite`, { headers: { cookie: nextCookie } })
			).text();
			expect(trail).toContain('Sauvegarde restaurée');
			expect(trail).toContain('ligne de commande (npm run restore)');
			expect(trail).toContain('Sauvegarde écrite en ligne de commande');
			expect(trail).toContain('Sauvegarde téléchargée');
		} finally {
			expect(await next.stop()).toBe(0);
		}
	}
);

test('restore refuses a damaged archive and changes nothing', { tag: '@drivers' }, async () => {
	const work = mkdtempSync(path.join(tmpdir(), 'atelier-backup-e2e-'));
	const file = path.join(work, 'broken.tar.gz');
	writeFileSync(file, Buffer.from('not a backup at all'));
	const result = command('restore', [file], { DATA_DIR: path.join(work, 'data') });
	expect(result.status).toBe(1);
	expect(result.stderr).toContain('Nothing was changed');
	// Nothing, indeed: the DATA_DIR that did not exist still does not (no folder, no new secret).
	expect(existsSync(path.join(work, 'data'))).toBe(false);
	expect(command('restore', [], { DATA_DIR: path.join(work, 'data') }).status).toBe(2);
});

test('npm run backup runs the built command and writes nothing under the application’s folder', async () => {
	const work = mkdtempSync(path.join(tmpdir(), 'atelier-backup-cmd-'));
	const buildFolder = path.dirname(serverEntry);
	const snapshot = () =>
		readdirSync(buildFolder, { recursive: true, withFileTypes: true })
			.filter((entry) => entry.isFile())
			.map((entry) => {
				const file = path.join(entry.parentPath, entry.name);
				return `${file} ${statSync(file).mtimeMs}`;
			})
			.sort();
	const before = snapshot();
	// An installation first (`db:migrate` makes the database and the secret, as a first start does).
	const installed = spawnSync(process.execPath, ['scripts/command.mjs', 'migrate'], {
		env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: path.join(work, 'data') },
		encoding: 'utf8',
		timeout: 120_000
	});
	expect(installed.status, installed.stderr).toBe(0);
	const archive = path.join(work, 'nuit.tar.gz.age');
	const run = spawnSync(process.execPath, ['scripts/command.mjs', 'backup', archive], {
		env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: path.join(work, 'data') },
		encoding: 'utf8',
		timeout: 120_000
	});
	expect(run.status, run.stderr).toBe(0);
	expect(existsSync(archive)).toBe(true);
	// Proven restorable, into a throw-away database; a damaged copy is not.
	const verify = (file: string) =>
		spawnSync(process.execPath, ['scripts/command.mjs', 'backup', '--verify', file], {
			env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: path.join(work, 'data') },
			encoding: 'utf8',
			timeout: 120_000
		});
	const verified = verify(archive);
	expect(verified.status, verified.stderr).toBe(0);
	expect(verified.stderr).toMatch(/verified — .* every count and checksum as the manifest says/);
	const damaged = path.join(work, 'damaged.tar.gz');
	writeFileSync(damaged, readFileSync(archive).subarray(0, Math.floor(statSync(archive).size / 2)));
	const refused = verify(damaged);
	expect(refused.status).toBe(1);
	expect(refused.stderr).toContain('NOT restorable');
	// A folder named with a trailing slash is made when missing, and the archive gets a dated name in it.
	const nightly = path.join(work, 'nightly');
	const intoFolder = spawnSync(process.execPath, ['scripts/command.mjs', 'backup', `${nightly}/`], {
		env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: path.join(work, 'data') },
		encoding: 'utf8',
		timeout: 120_000
	});
	expect(intoFolder.status, intoFolder.stderr).toBe(0);
	expect(statSync(nightly).isDirectory()).toBe(true);
	expect(readdirSync(nightly)).toEqual([expect.stringMatching(/^atelier-backup-.*\.tar\.gz\.age$/)]);
	// A plain archive only when asked, and read only when told so (archives from before 0.4.0 are plain).
	const plain = path.join(work, 'plain.tar.gz');
	const plainRun = spawnSync(process.execPath, ['scripts/command.mjs', 'backup', '--plain', plain], {
		env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: path.join(work, 'data') },
		encoding: 'utf8',
		timeout: 120_000
	});
	expect(plainRun.status, plainRun.stderr).toBe(0);
	expect(plainRun.stderr).toContain('It is NOT encrypted');
	expect(readFileSync(plain).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
	const plainRefused = verify(plain);
	expect(plainRefused.status).toBe(1);
	expect(plainRefused.stderr).toContain('this archive is not encrypted');
	expect(plainRefused.stderr).toContain('with --plain');
	const plainVerified = spawnSync(
		process.execPath,
		['scripts/command.mjs', 'backup', '--verify', plain, '--plain'],
		{
			env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: path.join(work, 'data') },
			encoding: 'utf8',
			timeout: 120_000
		}
	);
	expect(plainVerified.status, plainVerified.stderr).toBe(0);
	expect(snapshot()).toEqual(before);
	// Without a build, it says what to do instead of building over the application.
	const unbuilt = spawnSync(process.execPath, ['scripts/command.mjs', 'backup', archive], {
		env: { ...process.env, ATELIER_BUILD_DIR: path.join(work, 'no-build') },
		encoding: 'utf8'
	});
	expect(unbuilt.status).toBe(1);
	expect(unbuilt.stderr).toContain('npm run build');
});

test('backup, admin and stats refuse a DATA_DIR with no installation in words, and create nothing there', async () => {
	const work = mkdtempSync(path.join(tmpdir(), 'atelier-no-install-'));
	const empty = path.join(work, 'vide');
	mkdirSync(empty);
	for (const dataDir of [path.join(work, 'absent'), empty])
		for (const args of [['backup', path.join(work, 'b.tar.gz.age')], ['admin', 'list'], ['stats']]) {
			const run = spawnSync(process.execPath, ['scripts/command.mjs', ...args], {
				env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: dataDir },
				encoding: 'utf8',
				timeout: 120_000
			});
			const what = `${args[0]} on ${dataDir}`;
			expect(run.status, what).toBe(1);
			expect(run.stderr, what).toContain(`No Atelier installation in DATA_DIR ${dataDir}`);
			expect(run.stderr, what).toContain('Nothing was created');
			expect(run.stderr, what).not.toMatch(/\n\s+at /);
			// No database, no key, no secret, no archive.
			expect(existsSync(dataDir) ? readdirSync(dataDir) : [], what).toEqual([]);
			expect(existsSync(path.join(work, 'b.tar.gz.age')), what).toBe(false);
		}
	// The same folder once installed: the commands run.
	const installed = spawnSync(process.execPath, ['scripts/command.mjs', 'migrate'], {
		env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: empty },
		encoding: 'utf8',
		timeout: 120_000
	});
	expect(installed.status, installed.stderr).toBe(0);
	const listed = spawnSync(process.execPath, ['scripts/command.mjs', 'admin', 'list'], {
		env: { ...process.env, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: empty },
		encoding: 'utf8',
		timeout: 120_000
	});
	expect(listed.status, listed.stderr).toBe(0);
	expect(listed.stdout).toContain('No administrator yet');
});

test('the drill of docs/operations.md, run as written: verified, restored into a new folder, the admin signs in', async () => {
	// Two servers start, an archive is made, verified and restored: each step as long as it takes on two cores.
	test.setTimeout(300_000);
	// The site to drill: an admin with a password, then an archive sealed to the installation's own key.
	const work = mkdtempSync(path.join(tmpdir(), 'atelier-drill-'));
	const source = await startServer({ DATABASE_URL: '', SIGNING_SECRET: '' });
	const setup = await fetch(`${source.url}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(admin)
	});
	expect(setup.status).toBe(201);
	await source.stop();
	const archive = path.join(work, 'latest.tar.gz.age');
	const made = command('backup', [archive], { DATA_DIR: source.dataDir });
	expect(made.status, made.stderr).toBe(0);
	const home = path.join(work, 'home');
	mkdirSync(home);
	writeFileSync(
		path.join(home, 'atelier-backup-key.txt'),
		readFileSync(path.join(source.dataDir, 'backup-key.txt'))
	);

	const guide = readFileSync('docs/operations.md', 'utf8');
	const block = /\*\*The drill[\s\S]*?```sh\n([\s\S]*?)```/.exec(guide)![1]!;
	const lines = block
		.split('\n')
		.map((line) => line.replace(/\s+#.*$/, '').trim())
		.filter(Boolean);
	// A clone has no build: the block makes it before the first command needs it.
	expect(lines[0]).toMatch(/^git clone .* && npm ci$/);
	expect(lines[1]).toBe('npm run build');
	const drill = path.join(work, 'drill');
	const port = await freePort();
	const literally = (line: string) =>
		line
			.replaceAll('latest.tar.gz.age', archive)
			.replaceAll('/tmp/drill', drill)
			.replace('PORT=3100', `PORT=${port}`);
	// The clone and its build are this checkout and the tests' build (ATELIER_BUILD_DIR); HOME holds the key.
	const env = { ...process.env, HOME: home, DATABASE_URL: '', SIGNING_SECRET: '', DATA_DIR: '', ORIGIN: '' };
	const [start, ...steps] = lines.slice(2).reverse();
	for (const line of steps.reverse()) {
		const run = spawnSync('/bin/sh', ['-c', literally(line)], { env, encoding: 'utf8', timeout: 180_000 });
		expect(run.status, `${line}\n${run.stderr}`).toBe(0);
	}
	expect(start).toMatch(/npm start$/);
	const served = spawn('/bin/sh', ['-c', literally(start!)], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true
	});
	let said = '';
	served.stdout.on('data', (chunk) => (said += chunk));
	served.stderr.on('data', (chunk) => (said += chunk));
	let exited = false;
	served.once('exit', () => (exited = true));
	try {
		const url = `http://localhost:${port}`;
		await expect
			.poll(async () => (exited ? said : (await fetch(`${url}/healthz`).catch(() => null))?.status), {
				timeout: 120_000
			})
			.toBe(200);
		// The site as it was: its admin signs in with the password set before the backup.
		expect(await sessionCookieFor(url, admin)).toMatch(/=/);
	} finally {
		if (!exited) {
			process.kill(-served.pid!, 'SIGTERM');
			await new Promise((resolve) => served.once('exit', resolve));
		}
	}
});

test(
	'on PostgreSQL: a database no Atelier migrated is refused in words; with SIGNING_SECRET given, DATA_DIR need not exist',
	{
		tag: '@drivers'
	},
	async () => {
		const server = process.env.DATABASE_URL;
		test.skip(!server, 'PostgreSQL only (npm run test:drivers)');
		const name = `atelier_not_installed_${process.pid}`;
		const admin = (sql: string) => spawnSync('psql', [server!, '-qc', sql], { encoding: 'utf8' });
		admin(`drop database if exists ${name}`);
		expect(admin(`create database ${name}`).status).toBe(0);
		try {
			const work = mkdtempSync(path.join(tmpdir(), 'atelier-pg-install-'));
			const env = {
				...process.env,
				DATABASE_URL: new URL(`/${name}`, server).href,
				SIGNING_SECRET: 's'.repeat(40),
				DATA_DIR: path.join(work, 'absent')
			};
			const run = (args: string[]) =>
				spawnSync(process.execPath, ['scripts/command.mjs', ...args], {
					env,
					encoding: 'utf8',
					timeout: 120_000
				});
			for (const args of [['backup', '--plain', path.join(work, 'b.tar.gz')], ['admin', 'list'], ['stats']]) {
				const refused = run(args);
				expect(refused.status, args[0]).toBe(1);
				expect(refused.stderr, args[0]).toContain('the database DATABASE_URL names holds no Atelier schema');
			}
			expect(readdirSync(work)).toEqual([]);
			// Migrated, the same commands run, DATA_DIR still absent: the secret is given, the database holds the rest.
			expect(run(['migrate']).status).toBe(0);
			const listed = run(['admin', 'list']);
			expect(listed.status, listed.stderr).toBe(0);
			expect(readdirSync(work)).toEqual([]);
		} finally {
			admin(`drop database if exists ${name} with (force)`);
		}
	}
);
