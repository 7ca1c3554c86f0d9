import { mkdtempSync, readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'atelier-config-'));

function refusal(env: Record<string, string>): ConfigError {
	try {
		loadConfig({ DATA_DIR: freshDir(), ...env });
	} catch (error) {
		if (error instanceof ConfigError) return error;
		throw error;
	}
	throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig', () => {
	it('applies the documented defaults', () => {
		const dir = freshDir();
		const config = loadConfig({ DATA_DIR: dir });
		expect(config.port).toBe(3000);
		// Loopback unless HOST says otherwise: never every interface by surprise.
		expect(config.host).toBe('127.0.0.1');
		expect(config.origin.href).toBe('http://localhost:3000/');
		expect(config.dataDir).toBe(dir);
		expect(config.databaseUrl).toBeNull();
		expect(config.storage).toEqual({ driver: 'fs', bucket: 'private-gallery' });
		expect(config.smtpUrl).toBeNull();
		expect(config.mailFrom).toBe('Atelier <no-reply@localhost>');
		expect(config.adminEmail).toBe('no-reply@localhost');
		expect(config.stripe).toBeNull();
		expect(config.imageRemoteHosts).toEqual(['images.unsplash.com']);
		expect(config.cmsImageHost).toBeNull();
		expect(config.siteMode).toBe('platform');
		expect(config.bodySizeLimit).toBe('21M');
		expect(config.imageMaxEdge).toBe(2560);
		expect(config.leadsRetentionDays).toBe(1095);
	});

	it('resolves DATA_DIR against the working directory', () => {
		const cwd = freshDir();
		expect(loadConfig({ DATA_DIR: './here' }, cwd).dataDir).toBe(path.join(cwd, 'here'));
	});

	it('derives ORIGIN from PORT and MAIL_FROM from ORIGIN', () => {
		const config = loadConfig({ DATA_DIR: freshDir(), PORT: '8080' });
		expect(config.origin.origin).toBe('http://localhost:8080');
		const other = loadConfig({ DATA_DIR: freshDir(), ORIGIN: 'https://www.exemple.fr' });
		expect(other.mailFrom).toBe('Atelier <no-reply@www.exemple.fr>');
	});

	it('takes every override', () => {
		const config = loadConfig({
			DATA_DIR: freshDir(),
			PORT: '4000',
			HOST: '127.0.0.1',
			ORIGIN: 'https://atelier.example',
			DATABASE_URL: 'postgres://u:p@db:5432/atelier',
			STORAGE_DRIVER: 's3',
			S3_ENDPOINT: 'http://minio:9000',
			S3_ACCESS_KEY: 'access',
			S3_SECRET_KEY: 'secret-secret',
			S3_REGION: 'eu-west-3',
			S3_BUCKET: 'photos',
			SIGNING_SECRET: 'x'.repeat(40),
			SMTP_URL: 'smtps://user:pass@mail.example:465',
			MAIL_FROM: 'Maçonnerie <contact@exemple.fr>',
			ADMIN_EMAIL: 'patron@exemple.fr',
			STRIPE_SECRET_KEY: 'sk_test_123',
			STRIPE_WEBHOOK_SECRET: 'whsec_123',
			STRIPE_PRICE_ID: 'price_123',
			STRIPE_API_URL: 'http://127.0.0.1:12111',
			IMAGE_REMOTE_HOSTS: 'images.unsplash.com, CDN.example:8443',
			CMS_IMAGE_HOST: 'cms.example',
			BODY_SIZE_LIMIT: '30M',
			IMAGE_MAX_EDGE: '2000',
			LEADS_RETENTION_DAYS: '365'
		});
		expect(config).toMatchObject({
			port: 4000,
			host: '127.0.0.1',
			databaseUrl: 'postgres://u:p@db:5432/atelier',
			signingSecret: 'x'.repeat(40),
			smtpUrl: 'smtps://user:pass@mail.example:465',
			mailFrom: 'Maçonnerie <contact@exemple.fr>',
			adminEmail: 'patron@exemple.fr',
			imageRemoteHosts: ['images.unsplash.com', 'cdn.example:8443'],
			cmsImageHost: 'cms.example',
			bodySizeLimit: '30M',
			imageMaxEdge: 2000,
			leadsRetentionDays: 365
		});
		expect(config.origin.origin).toBe('https://atelier.example');
		expect(config.storage).toMatchObject({
			driver: 's3',
			bucket: 'photos',
			region: 'eu-west-3',
			accessKey: 'access'
		});
		expect(config.stripe).toMatchObject({ secretKey: 'sk_test_123', priceId: 'price_123' });
		expect(config.stripe?.apiUrl?.href).toBe('http://127.0.0.1:12111/');
	});

	it('falls back to the MAIL_FROM address for ADMIN_EMAIL', () => {
		const config = loadConfig({ DATA_DIR: freshDir(), MAIL_FROM: 'Atelier <bonjour@exemple.fr>' });
		expect(config.adminEmail).toBe('bonjour@exemple.fr');
	});

	it('treats empty values as unset', () => {
		const config = loadConfig({ DATA_DIR: freshDir(), DATABASE_URL: '', SMTP_URL: ' ', PORT: '' });
		expect(config.databaseUrl).toBeNull();
		expect(config.smtpUrl).toBeNull();
		expect(config.port).toBe(3000);
	});

	it('drops the CMS image host in showcase mode', () => {
		const config = loadConfig({ DATA_DIR: freshDir(), SITE_MODE: 'showcase', CMS_IMAGE_HOST: 'cms.example' });
		expect(config.siteMode).toBe('showcase');
		expect(config.cmsImageHost).toBeNull();
	});

	it.each([
		[{ STORAGE_DRIVER: 'bogus' }, 'STORAGE_DRIVER'],
		[{ PORT: 'abc' }, 'PORT'],
		[{ PORT: '70000' }, 'PORT'],
		[{ ORIGIN: 'localhost:3000' }, 'ORIGIN'],
		[{ ORIGIN: 'ftp://example.fr' }, 'ORIGIN'],
		[{ ORIGIN: 'https://example.fr/app' }, 'ORIGIN'],
		[{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
		[{ S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
		[{ S3_BUCKET: 'No_Such' }, 'S3_BUCKET'],
		[{ SIGNING_SECRET: 'short' }, 'SIGNING_SECRET'],
		[{ SMTP_URL: 'http://mail.example' }, 'SMTP_URL'],
		[{ MAIL_FROM: 'not an address' }, 'MAIL_FROM'],
		[{ ADMIN_EMAIL: 'nobody' }, 'ADMIN_EMAIL'],
		[
			{ STRIPE_SECRET_KEY: 'pk_live_123', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_ID: 'price_1' },
			'STRIPE_SECRET_KEY'
		],
		[{ STRIPE_API_URL: 'nope' }, 'STRIPE_API_URL'],
		[{ IMAGE_REMOTE_HOSTS: 'https://images.unsplash.com' }, 'IMAGE_REMOTE_HOSTS'],
		[{ CMS_IMAGE_HOST: 'cms example' }, 'CMS_IMAGE_HOST'],
		[{ SITE_MODE: 'demo' }, 'SITE_MODE'],
		[{ BODY_SIZE_LIMIT: 'lots' }, 'BODY_SIZE_LIMIT'],
		[{ IMAGE_MAX_EDGE: '0' }, 'IMAGE_MAX_EDGE'],
		[{ LEADS_RETENTION_DAYS: '1.5' }, 'LEADS_RETENTION_DAYS'],
		[{ LEADS_RETENTION_DAYS: '0' }, 'LEADS_RETENTION_DAYS']
	])('refuses %j and names %s', (env, name) => {
		const error = refusal(env);
		expect(error.message).toContain(`${name}:`);
		expect(error.problems).toHaveLength(1);
	});

	it('says what a number below its minimum should be', () => {
		expect(refusal({ LEADS_RETENTION_DAYS: '0' }).message).toContain(
			'LEADS_RETENTION_DAYS: must be at least 1'
		);
	});

	it('names every missing S3 variable when STORAGE_DRIVER=s3', () => {
		const error = refusal({ STORAGE_DRIVER: 's3' });
		expect(error.problems.map((p) => p.split(':')[0])).toEqual([
			'S3_ENDPOINT',
			'S3_ACCESS_KEY',
			'S3_SECRET_KEY'
		]);
	});

	it('refuses a partial Stripe configuration instead of half-enabling payments', () => {
		const error = refusal({ STRIPE_SECRET_KEY: 'sk_test_1' });
		expect(error.message).toContain('STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID');
	});

	it('reports several bad variables at once', () => {
		const error = refusal({ PORT: 'x', SITE_MODE: 'y' });
		expect(error.problems).toHaveLength(2);
	});
});

describe('the waits of the anti-abuse rules', () => {
	it('are the rules’ own in any build but a test build, whatever the environment says', () => {
		// Vitest builds with __ATELIER_TEST_BUILD__ false, as `npm run build` does (scripts/bundle-options.mjs).
		expect(__ATELIER_TEST_BUILD__).toBe(false);
		const config = loadConfig({
			DATA_DIR: freshDir(),
			ATELIER_TEST_QUIZ_RETRY_SECONDS: '1',
			ATELIER_TEST_FORM_MIN_FILL_MS: '1'
		});
		expect(config.waits).toEqual({ quizRetrySeconds: 30, formMinFillMs: 3_000 });
	});
});

describe('refusal messages', () => {
	it('never quote a secret, nor the password inside a URL', () => {
		const error = refusal({
			SIGNING_SECRET: 'tooshort-but-secret',
			SMTP_URL: 'http://user:hunter2@mail.example',
			DATABASE_URL: 'mysql://app:s3cr3t@db/atelier',
			STRIPE_SECRET_KEY: 'pk_live_very_secret_value'
		});
		expect(error.message).not.toMatch(/tooshort-but-secret|hunter2|s3cr3t|very_secret/);
		expect(error.message).toContain(
			'SIGNING_SECRET: must be at least 32 characters long (got a hidden value of 19 characters)'
		);
		expect(error.message).toContain('"http://user:***@mail.example"');
		expect(error.message).toContain('"mysql://app:***@db/atelier"');
	});

	it('takes a metrics token of 32 printable characters or more, and never quotes a refused one', () => {
		const token = 'a'.repeat(40);
		expect(loadConfig({ DATA_DIR: freshDir(), METRICS_TOKEN: token }).metricsToken).toBe(token);
		expect(loadConfig({ DATA_DIR: freshDir() }).metricsToken).toBeNull();
		const short = refusal({ METRICS_TOKEN: 'court-et-secret' });
		expect(short.message).toContain('METRICS_TOKEN: must be at least 32 characters');
		expect(short.message).not.toContain('court-et-secret');
		expect(refusal({ METRICS_TOKEN: `${'b'.repeat(32)} c` }).message).toContain('without spaces');
	});
});

describe('signing secret', () => {
	it('is generated once, kept in DATA_DIR/secret with mode 600, and reused', () => {
		const dir = freshDir();
		const first = loadConfig({ DATA_DIR: dir }).signingSecret;
		expect(first).toMatch(/^[0-9a-f]{64}$/);
		const file = path.join(dir, 'secret');
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(readFileSync(file, 'utf8').trim()).toBe(first);
		expect(loadConfig({ DATA_DIR: dir }).signingSecret).toBe(first);
	});

	it('creates DATA_DIR when it does not exist', () => {
		const dir = path.join(freshDir(), 'nested', 'data');
		expect(loadConfig({ DATA_DIR: dir }).signingSecret).toHaveLength(64);
	});

	it('tightens a secret file that others could read', () => {
		const dir = freshDir();
		loadConfig({ DATA_DIR: dir });
		chmodSync(path.join(dir, 'secret'), 0o644);
		loadConfig({ DATA_DIR: dir });
		expect(statSync(path.join(dir, 'secret')).mode & 0o777).toBe(0o600);
	});

	it('refuses a secret file that is too short', () => {
		const dir = freshDir();
		writeFileSync(path.join(dir, 'secret'), 'abc', { mode: 0o600 });
		expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/SIGNING_SECRET/);
	});

	it('prefers SIGNING_SECRET and writes no file then', () => {
		const dir = freshDir();
		loadConfig({ DATA_DIR: dir, SIGNING_SECRET: 's'.repeat(32) });
		expect(() => statSync(path.join(dir, 'secret'))).toThrow();
	});

	describe('backups', () => {
		const RECIPIENT = 'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p';
		const s3 = {
			BACKUP_S3_ENDPOINT: 'https://s3.example.net',
			BACKUP_S3_BUCKET: 'atelier-backups',
			BACKUP_S3_ACCESS_KEY: 'backup-key',
			BACKUP_S3_SECRET_KEY: 'backup-secret'
		};

		it('is off by default, into DATA_DIR/backups, keeping 7 days, 4 weeks and 6 months', () => {
			const dir = freshDir();
			expect(loadConfig({ DATA_DIR: dir }).backup).toEqual({
				schedule: null,
				dir: path.join(dir, 'backups'),
				s3: null,
				keep: { last: 0, daily: 7, weekly: 4, monthly: 6 },
				ageRecipients: []
			});
		});

		it('reads a schedule, recipients, an S3 bucket of its own and a retention', () => {
			const config = loadConfig({
				DATA_DIR: freshDir(),
				BACKUP_SCHEDULE: '0 3 * * *',
				BACKUP_AGE_RECIPIENTS: `${RECIPIENT}, ${RECIPIENT}`,
				BACKUP_KEEP: '14d',
				BACKUP_DIR: 'off',
				...s3
			});
			expect(config.backup.schedule).toBe('0 3 * * *');
			expect(config.backup.ageRecipients).toEqual([RECIPIENT, RECIPIENT]);
			expect(config.backup.dir).toBeNull();
			expect(config.backup.keep).toEqual({ last: 0, daily: 14, weekly: 0, monthly: 0 });
			expect(config.backup.s3).toMatchObject({
				bucket: 'atelier-backups',
				prefix: 'atelier/',
				region: 'us-east-1'
			});
			expect(loadConfig({ DATA_DIR: freshDir(), BACKUP_SCHEDULE: 'off' }).backup.schedule).toBeNull();
		});

		it('refuses what cannot work, naming the variable, and never quotes the backup keys', () => {
			expect(refusal({ BACKUP_SCHEDULE: 'every night' }).message).toMatch(
				/BACKUP_SCHEDULE: must be "off" or a cron/
			);
			expect(refusal({ BACKUP_SCHEDULE: '61 3 * * *' }).message).toContain('BACKUP_SCHEDULE');
			expect(refusal({ BACKUP_KEEP: 'a week' }).message).toContain('BACKUP_KEEP: must say how many to keep');
			expect(refusal({ BACKUP_AGE_RECIPIENTS: 'age1notakey' }).message).toContain(
				'BACKUP_AGE_RECIPIENTS: must be age public keys'
			);
			expect(refusal({ BACKUP_AGE_RECIPIENTS: 'AGE-SECRET-KEY-1QQQ' }).message).toContain(
				'BACKUP_AGE_RECIPIENTS'
			);
			expect(refusal({ BACKUP_S3_BUCKET: 'atelier-backups' }).message).toContain('set all four');
			expect(refusal({ BACKUP_DIR: 'off' }).message).toContain('BACKUP_DIR: "off" needs BACKUP_S3_*');
			expect(refusal({ ...s3, BACKUP_S3_PREFIX: '../up' }).message).toContain('BACKUP_S3_PREFIX');
			const site = {
				STORAGE_DRIVER: 's3',
				S3_ENDPOINT: 'https://s3.example.net',
				S3_BUCKET: 'atelier-backups',
				S3_ACCESS_KEY: 'backup-key',
				S3_SECRET_KEY: 'site-secret'
			};
			const sameBucket = refusal({ ...site, ...s3 }).message;
			expect(sameBucket).toContain("BACKUP_S3_BUCKET: must be another bucket than the site's images");
			expect(sameBucket).toContain("BACKUP_S3_ACCESS_KEY: must be other keys than the site's");
			expect(refusal({ ...s3, BACKUP_S3_ACCESS_KEY: '', BACKUP_S3_SECRET_KEY: 'x' }).message).not.toContain(
				'backup-secret'
			);
		});
	});
});
