/**
 * The only reader of the environment (CONTRACT §2). Every variable is parsed and validated once, with zod;
 * a bad value stops start-up with a message that names the variable.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { DEFAULT_KEEP, isRecipient, parseKeepPolicy, type KeepPolicy } from './backup-settings';
import { lazy } from './lazy';
import { installRoot } from './install-root';
import { LOG_LEVELS, type LogLevel } from './log';

export class ConfigError extends Error {
	constructor(readonly problems: string[]) {
		super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
		this.name = 'ConfigError';
	}
}

type Env = Record<string, string | undefined>;

/** Treat empty strings like unset variables: `FOO=` in a .env file means "use the default". */
const optional = <T extends z.ZodType>(schema: T) =>
	z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const hostPattern =
	/^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::\d{1,5})?$/i;

const urlWithProtocols = (protocols: string[], what: string) =>
	z.string().refine(
		(value) => {
			try {
				return protocols.includes(new URL(value).protocol);
			} catch {
				return false;
			}
		},
		{ message: `must be ${what}`, abort: true }
	);

const port = z.coerce
	.number({ error: 'must be a port number' })
	.int('must be a whole number')
	.min(1, 'must be between 1 and 65535')
	.max(65535, 'must be between 1 and 65535');

const positiveInt = (max: number) =>
	z.coerce
		.number({ error: 'must be a number' })
		.int('must be a whole number')
		.min(1, 'must be at least 1')
		.max(max, `must be at most ${max}`);

const envSchema = z.object({
	PORT: optional(port),
	HOST: optional(z.string().min(1)),
	ORIGIN: optional(
		urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL').refine((value) => {
			const url = new URL(value);
			return (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
		}, 'must be an origin only, without a path, query or fragment (e.g. https://example.fr)')
	),
	DATA_DIR: optional(z.string()),
	DATABASE_URL: optional(urlWithProtocols(['postgres:', 'postgresql:'], 'a postgres:// URL')),
	STORAGE_DRIVER: optional(z.enum(['fs', 's3'], { error: 'must be "fs" or "s3"' })),
	S3_ENDPOINT: optional(urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL')),
	S3_ACCESS_KEY: optional(z.string()),
	S3_SECRET_KEY: optional(z.string()),
	S3_REGION: optional(z.string().regex(/^[a-z0-9-]+$/, 'must look like us-east-1')),
	S3_BUCKET: optional(
		z
			.string()
			.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3-63 lower-case characters)')
	),
	SIGNING_SECRET: optional(z.string().min(32, 'must be at least 32 characters long')),
	SMTP_URL: optional(urlWithProtocols(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL')),
	MAIL_FROM: optional(
		z
			.string()
			.regex(
				/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
				'must be an address, optionally as "Name <address>"'
			)
	),
	ADMIN_EMAIL: optional(z.email('must be an e-mail address')),
	STRIPE_SECRET_KEY: optional(z.string().regex(/^(sk|rk)_/, 'must start with sk_ or rk_')),
	STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_/, 'must start with whsec_')),
	STRIPE_PRICE_ID: optional(z.string().regex(/^price_/, 'must start with price_')),
	STRIPE_API_URL: optional(urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL')),
	IMAGE_REMOTE_HOSTS: optional(
		z
			.string()
			.transform((v) =>
				v
					.split(',')
					.map((h) => h.trim().toLowerCase())
					.filter(Boolean)
			)
			.refine(
				(hosts) => hosts.every((h) => hostPattern.test(h)),
				'must be a comma-separated list of host[:port]'
			)
	),
	CMS_IMAGE_HOST: optional(z.string().regex(hostPattern, 'must be a host name, optionally with :port')),
	SITE_MODE: optional(z.enum(['platform', 'showcase'], { error: 'must be "platform" or "showcase"' })),
	BODY_SIZE_LIMIT: optional(
		z.string().regex(/^(?:\d+[KMG]?|Infinity)$/i, 'must be a number of bytes, optionally with K, M or G')
	),
	IMAGE_MAX_EDGE: optional(positiveInt(16384)),
	// A backup's entry holds 8 GiB less one byte (a tar header's size field): a video must fit in one.
	COURSE_VIDEO_MAX_MB: optional(positiveInt(8191)),
	LEADS_RETENTION_DAYS: optional(positiveInt(36500)),
	ADMIN_2FA: optional(z.enum(['optional', 'required'], { error: 'must be "optional" or "required"' })),
	BACKUP_BEFORE_MIGRATING: optional(z.enum(['true', 'false'], { error: 'must be "true" or "false"' })),
	BACKUP_SCHEDULE: optional(
		z.string().refine((value) => value === 'off' || isCronPattern(value), {
			message: 'must be "off" or a cron schedule such as "0 3 * * *" (minute hour day month weekday)'
		})
	),
	BACKUP_DIR: optional(z.string()),
	BACKUP_KEEP: optional(
		z.string().refine((value) => parseKeepPolicy(value) !== null, {
			message: 'must say how many to keep, such as "7d,4w,6m" (days, weeks, months) or "10" (the newest)'
		})
	),
	BACKUP_AGE_RECIPIENTS: optional(
		z
			.string()
			.transform((value) => value.split(/[\s,]+/).filter(Boolean))
			.refine((keys) => keys.length > 0 && keys.every(isRecipient), {
				message: 'must be age public keys (age1…), separated by commas'
			})
	),
	BACKUP_S3_ENDPOINT: optional(urlWithProtocols(['http:', 'https:'], 'an http:// or https:// URL')),
	BACKUP_S3_BUCKET: optional(
		z
			.string()
			.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3-63 lower-case characters)')
	),
	BACKUP_S3_PREFIX: optional(
		z.string().regex(/^(?:[A-Za-z0-9_-]+\/)*$/, 'must be folders ending with "/", such as "atelier/"')
	),
	BACKUP_S3_ACCESS_KEY: optional(z.string()),
	BACKUP_S3_SECRET_KEY: optional(z.string()),
	BACKUP_S3_REGION: optional(z.string().regex(/^[a-z0-9-]+$/, 'must look like us-east-1')),
	LOG_LEVEL: optional(
		z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.map((l) => `"${l}"`).join(', ')}` })
	),
	ANALYTICS: optional(z.enum(['on', 'off'], { error: 'must be "on" or "off"' })),
	METRICS_TOKEN: optional(
		z
			.string()
			.min(32, 'must be at least 32 characters (openssl rand -hex 32)')
			.regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces (it is sent in a header)')
	),
	// adapter-node reads these two itself; the server entry reads them here, to tell visitors apart as it does.
	ADDRESS_HEADER: optional(z.string().regex(/^[A-Za-z0-9-]+$/, 'must be a header name')),
	XFF_DEPTH: optional(positiveInt(20))
});

export type StorageConfig =
	| { driver: 'fs'; bucket: string }
	| {
			driver: 's3';
			bucket: string;
			endpoint: URL;
			accessKey: string;
			secretKey: string;
			region: string;
	  };

/** Where scheduled backups go and how they are kept (docs/operations.md « Scheduled backups »). */
export interface BackupConfig {
	/** A cron pattern in the server's time zone; null: no schedule (the default on the npm path). */
	schedule: string | null;
	/** The folder they are written to; null when BACKUP_DIR=off (S3 only). */
	dir: string | null;
	s3: {
		endpoint: URL;
		bucket: string;
		prefix: string;
		accessKey: string;
		secretKey: string;
		region: string;
	} | null;
	keep: KeepPolicy;
	/** age public keys every backup is encrypted to; empty: the installation's own key (DATA_DIR/backup-key.txt). */
	ageRecipients: string[];
}

export type StripeConfig = { secretKey: string; webhookSecret: string; priceId: string; apiUrl: URL | null };

export interface Config {
	port: number;
	host: string;
	origin: URL;
	dataDir: string;
	databaseUrl: string | null;
	storage: StorageConfig;
	signingSecret: string;
	smtpUrl: string | null;
	mailFrom: string;
	adminEmail: string;
	/** null when any of the three Stripe variables is missing: payments are off. */
	stripe: StripeConfig | null;
	imageRemoteHosts: string[];
	cmsImageHost: string | null;
	siteMode: 'platform' | 'showcase';
	bodySizeLimit: string;
	imageMaxEdge: number;
	/** The largest course video an admin may upload, in bytes (COURSE_VIDEO_MAX_MB, 2048 by default). */
	courseVideoMaxBytes: number;
	leadsRetentionDays: number;
	/** `required`: an admin without a second factor must enrol before any admin page or API answers them. */
	admin2fa: 'optional' | 'required';
	/** At start, a backup into DATA_DIR/backups before migrations run on a database that holds data. */
	backupBeforeMigrating: boolean;
	backup: BackupConfig;
	/** What the log writes: debug adds the health checks' requests; warn and error leave out each request's line. */
	logLevel: LogLevel;
	/** Audience measurement inside the server, without cookies (insights/audience.ts); on unless ANALYTICS=off. */
	analytics: boolean;
	/** The bearer token `GET /metrics` asks for; null: the route answers 404 (metrics off). */
	metricsToken: string | null;
	/** Behind a proxy: the header that carries the visitor's address, and how many proxies to count back. */
	clientAddress: { header: string | null; xffDepth: number };
	/** The waits of the anti-abuse rules (abuseWaits below). */
	waits: AbuseWaits;
}

/**
 * How long the anti-abuse rules make a person wait: between two attempts at a module's quiz, and before a public
 * form's submission counts as a person's (sooner is a robot's). Fixed in a real build; a test build (`npm run
 * test:e2e`, scripts/build.mjs --tests, `__ATELIER_TEST_BUILD__`) reads ATELIER_TEST_QUIZ_RETRY_SECONDS and
 * ATELIER_TEST_FORM_MIN_FILL_MS, so that its browser tests prove each rule without waiting its whole length. The
 * variables are not read at all by the build people run: the constant folds the branch away.
 */
export interface AbuseWaits {
	quizRetrySeconds: number;
	formMinFillMs: number;
}
export const ABUSE_WAITS: AbuseWaits = { quizRetrySeconds: 30, formMinFillMs: 3_000 };

function abuseWaits(env: Env): AbuseWaits {
	if (typeof __ATELIER_TEST_BUILD__ === 'undefined' || !__ATELIER_TEST_BUILD__) return ABUSE_WAITS;
	const number = (value: string | undefined, fallback: number) =>
		value && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : fallback;
	return {
		quizRetrySeconds: number(env.ATELIER_TEST_QUIZ_RETRY_SECONDS, ABUSE_WAITS.quizRetrySeconds),
		formMinFillMs: number(env.ATELIER_TEST_FORM_MIN_FILL_MS, ABUSE_WAITS.formMinFillMs)
	};
}

/** Large enough for a 20 MB upload plus its multipart envelope; every other route enforces a small limit itself. */
export const DEFAULT_BODY_SIZE_LIMIT = '21M';

/**
 * Reads and validates the environment. Pure apart from the signing secret, which is generated once and
 * kept in DATA_DIR/secret (mode 600) when SIGNING_SECRET is not given.
 */
const SECRET_VARIABLES = new Set([
	'SIGNING_SECRET',
	'S3_ACCESS_KEY',
	'S3_SECRET_KEY',
	'STRIPE_SECRET_KEY',
	'STRIPE_WEBHOOK_SECRET',
	'BACKUP_S3_ACCESS_KEY',
	'BACKUP_S3_SECRET_KEY',
	'METRICS_TOKEN'
]);

/** How a refused value is quoted back: secrets never, and never the password inside a URL. */
export function shownValue(name: string, value: string | undefined): string {
	if (value === undefined) return 'nothing';
	if (SECRET_VARIABLES.has(name)) return `a hidden value of ${value.length} characters`;
	return JSON.stringify(value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@\s]*@/i, '$1:***@'));
}

/** DATA_DIR as loadConfig resolves it, without creating anything (loadConfig creates the secret there). */
export function configuredDataDir(env: Env = process.env, root = installRoot): string {
	return path.resolve(root, env.DATA_DIR || './data');
}

/**
 * Where a command finds the installation, as loadConfig would, without creating anything: DATA_DIR, whether the
 * database is the embedded one (in DATA_DIR/db), and whether the signing secret is given (else DATA_DIR/secret).
 */
export function configuredInstallation(env: Env = process.env, root = installRoot) {
	return {
		dataDir: configuredDataDir(env, root),
		embedded: !env.DATABASE_URL,
		secretGiven: !!env.SIGNING_SECRET
	};
}

/** `root` resolves a relative DATA_DIR: the install folder, not the current directory (README, Configuration). */
export function loadConfig(env: Env = process.env, root = installRoot): Config {
	const parsed = envSchema.safeParse(env);
	const problems: string[] = [];
	if (!parsed.success) {
		for (const issue of parsed.error.issues) {
			const name = String(issue.path[0]);
			problems.push(`${name}: ${issue.message} (got ${shownValue(name, env[name])})`);
		}
		throw new ConfigError(problems);
	}
	const e = parsed.data;

	const port = e.PORT ?? 3000;
	const origin = new URL(e.ORIGIN ?? `http://localhost:${port}`);
	const dataDir = configuredDataDir(env, root);

	let storage: StorageConfig;
	const bucket = e.S3_BUCKET ?? 'private-gallery';
	if ((e.STORAGE_DRIVER ?? 'fs') === 's3') {
		for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
			if (!e[name]) problems.push(`${name}: required when STORAGE_DRIVER=s3`);
		}
		storage = {
			driver: 's3',
			bucket,
			endpoint: new URL(e.S3_ENDPOINT ?? 'http://invalid'),
			accessKey: e.S3_ACCESS_KEY ?? '',
			secretKey: e.S3_SECRET_KEY ?? '',
			region: e.S3_REGION ?? 'us-east-1'
		};
	} else {
		storage = { driver: 'fs', bucket: 'private-gallery' };
	}

	const stripeValues = [e.STRIPE_SECRET_KEY, e.STRIPE_WEBHOOK_SECRET, e.STRIPE_PRICE_ID];
	let stripe: StripeConfig | null = null;
	if (stripeValues.every(Boolean)) {
		stripe = {
			secretKey: e.STRIPE_SECRET_KEY!,
			webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
			priceId: e.STRIPE_PRICE_ID!,
			apiUrl: e.STRIPE_API_URL ? new URL(e.STRIPE_API_URL) : null
		};
	} else if (stripeValues.some(Boolean)) {
		problems.push(
			'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID: set all three to turn payments on, or none to leave them off'
		);
	}

	const backup = backupConfig(e, dataDir, storage, root, problems);

	if (problems.length) throw new ConfigError(problems);

	const mailFrom = e.MAIL_FROM ?? `Atelier <no-reply@${origin.hostname}>`;
	const siteMode = e.SITE_MODE ?? 'platform';

	return {
		port,
		// Loopback unless told: a server started by hand is not on every interface of the machine by surprise (the image
		// and compose set HOST=0.0.0.0, behind their own network).
		host: e.HOST ?? '127.0.0.1',
		origin,
		dataDir,
		databaseUrl: e.DATABASE_URL ?? null,
		storage,
		signingSecret: e.SIGNING_SECRET ?? readOrCreateSecret(dataDir),
		smtpUrl: e.SMTP_URL ?? null,
		mailFrom,
		adminEmail: e.ADMIN_EMAIL ?? addressOf(mailFrom),
		stripe,
		imageRemoteHosts: e.IMAGE_REMOTE_HOSTS ?? ['images.unsplash.com'],
		// The showcase revision drops the CMS image host from the policy (SEED.md part 1).
		cmsImageHost: siteMode === 'showcase' ? null : (e.CMS_IMAGE_HOST?.toLowerCase() ?? null),
		siteMode,
		bodySizeLimit: e.BODY_SIZE_LIMIT ?? DEFAULT_BODY_SIZE_LIMIT,
		imageMaxEdge: e.IMAGE_MAX_EDGE ?? 2560,
		courseVideoMaxBytes: (e.COURSE_VIDEO_MAX_MB ?? 2048) * 1024 * 1024,
		leadsRetentionDays: e.LEADS_RETENTION_DAYS ?? 1095,
		admin2fa: e.ADMIN_2FA ?? 'optional',
		backupBeforeMigrating: e.BACKUP_BEFORE_MIGRATING !== 'false',
		backup,
		logLevel: e.LOG_LEVEL ?? 'info',
		analytics: e.ANALYTICS !== 'off',
		metricsToken: e.METRICS_TOKEN ?? null,
		clientAddress: { header: e.ADDRESS_HEADER?.toLowerCase() ?? null, xffDepth: e.XFF_DEPTH ?? 1 },
		waits: abuseWaits(env)
	};
}

function isCronPattern(value: string): boolean {
	try {
		new Cron(value, { paused: true }).stop();
		return true;
	} catch {
		return false;
	}
}

/**
 * The backups' own bucket must be another than the site's, with other keys: whoever holds the site's keys (a
 * compromised server) must not be able to delete the backups with them.
 */
function backupConfig(
	e: z.infer<typeof envSchema>,
	dataDir: string,
	storage: StorageConfig,
	root: string,
	problems: string[]
): BackupConfig {
	const s3Values = [e.BACKUP_S3_ENDPOINT, e.BACKUP_S3_BUCKET, e.BACKUP_S3_ACCESS_KEY, e.BACKUP_S3_SECRET_KEY];
	let s3: BackupConfig['s3'] = null;
	if (s3Values.every(Boolean)) {
		s3 = {
			endpoint: new URL(e.BACKUP_S3_ENDPOINT!),
			bucket: e.BACKUP_S3_BUCKET!,
			prefix: e.BACKUP_S3_PREFIX ?? 'atelier/',
			accessKey: e.BACKUP_S3_ACCESS_KEY!,
			secretKey: e.BACKUP_S3_SECRET_KEY!,
			region: e.BACKUP_S3_REGION ?? 'us-east-1'
		};
		if (storage.driver === 's3') {
			if (s3.endpoint.host === storage.endpoint.host && s3.bucket === storage.bucket)
				problems.push("BACKUP_S3_BUCKET: must be another bucket than the site's images (S3_BUCKET)");
			if (s3.accessKey === storage.accessKey)
				problems.push(
					"BACKUP_S3_ACCESS_KEY: must be other keys than the site's (S3_ACCESS_KEY): keys that can write the " +
						"site's bucket must not be able to delete its backups"
				);
		}
	} else if (s3Values.some(Boolean)) {
		problems.push(
			'BACKUP_S3_ENDPOINT, BACKUP_S3_BUCKET, BACKUP_S3_ACCESS_KEY, BACKUP_S3_SECRET_KEY: set all four to send ' +
				'backups to S3, or none'
		);
	}
	const dir =
		e.BACKUP_DIR === 'off' ? null : path.resolve(root, e.BACKUP_DIR ?? path.join(dataDir, 'backups'));
	if (!dir && !s3) problems.push('BACKUP_DIR: "off" needs BACKUP_S3_* (backups must go somewhere)');
	const schedule = e.BACKUP_SCHEDULE && e.BACKUP_SCHEDULE !== 'off' ? e.BACKUP_SCHEDULE : null;
	return {
		schedule,
		dir,
		s3,
		keep: parseKeepPolicy(e.BACKUP_KEEP ?? DEFAULT_KEEP)!,
		ageRecipients: e.BACKUP_AGE_RECIPIENTS ?? []
	};
}

/** "Atelier <no-reply@x.fr>" → "no-reply@x.fr" */
export function addressOf(mailbox: string): string {
	const match = /<([^>]+)>/.exec(mailbox);
	return (match?.[1] ?? mailbox).trim();
}

function readOrCreateSecret(dataDir: string): string {
	const file = path.join(dataDir, 'secret');
	mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	try {
		writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
	} catch (error) {
		// EEXIST: made by an earlier start, or by another instance starting at the same moment.
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
	// A secret readable by other local users is a secret no longer: tighten it if someone loosened it.
	if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
	const secret = readFileSync(file, 'utf8').trim();
	if (secret.length < 32)
		throw new ConfigError([`SIGNING_SECRET: the file ${file} holds a secret shorter than 32 characters`]);
	return secret;
}

/** The process-wide configuration, read on first use (so that importing a module never touches the disk). */
export const config: Config = lazy(() => loadConfig());
