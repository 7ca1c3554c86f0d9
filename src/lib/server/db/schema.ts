/**
 * The database schema (CONTRACT §5). Column names are snake_case in PostgreSQL, camelCase in TypeScript.
 * Change it, then `npm run db:generate` to write the migration under drizzle/.
 */
import { sql } from 'drizzle-orm';
import {
	bigint,
	boolean,
	date,
	index,
	integer,
	jsonb,
	primaryKey,
	pgTable,
	text,
	timestamp,
	uniqueIndex,
	uuid
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Where a lead or a candidature came from (issue "Insights", point 2): the page it was sent from, and — when the
 * server saw the visitor land that day — the other site's host and the campaign (insights/audience.ts).
 */
const origin = () => ({
	sourcePage: text('source_page'),
	referrerHost: text('referrer_host'),
	utmSource: text('utm_source'),
	utmMedium: text('utm_medium'),
	utmCampaign: text('utm_campaign')
});

export const users = pgTable(
	'users',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		/** Always stored lower-case, so that comparisons are exact and the unique index means what it says. */
		email: text('email').notNull(),
		name: text('name').notNull(),
		passwordHash: text('password_hash').notNull(),
		isAdmin: boolean('is_admin').notNull().default(false),
		createdAt: createdAt(),
		/** Set each time a session is opened (sign-in, registration, password link): the admin's users list. */
		lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
		/**
		 * Set by a password reset: device cookies issued before it no longer name a known browser (auth/device.ts),
		 * so whoever held one before the reset is a stranger again.
		 */
		devicesRevokedAt: timestamp('devices_revoked_at', { withTimezone: true })
	},
	(t) => [uniqueIndex('users_email_unique').on(t.email)]
);

export const sessions = pgTable(
	'sessions',
	{
		/** SHA-256 of the cookie's token, hex: the database never holds a usable token. */
		id: text('id').primaryKey(),
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		createdAt: createdAt(),
		/** The browser's User-Agent as sent at sign-in (cut to 300 characters), to name the device on /profil. */
		userAgent: text('user_agent'),
		/** The network the sign-in came from (`203.0.113.0/24`, `2001:db8:1::/48`), never the full address. */
		network: text('network'),
		/** When the session last made a request, to the nearest few minutes (not written on every request). */
		lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
		/** When this session last proved its user again (password or code): the most sensitive admin actions want it recent. */
		reauthenticatedAt: timestamp('reauthenticated_at', { withTimezone: true })
	},
	(t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)]
);

export const siteImages = pgTable('site_images', {
	key: text('key').primaryKey(),
	/** An https:// URL on an allowed host, or storage:<path> in the private bucket. */
	url: text('url').notNull(),
	/** What the photo shows, written by the admin who chose it; null: the slot's own label. */
	alt: text('alt'),
	/** The photo's own width in pixels, when known: a page offers no `srcset` width it does not have. */
	width: integer('width'),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
	updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' })
});

/** Fixed-window counters for rate limits, shared by every instance (abuse/queries.ts). */
export const rateLimits = pgTable(
	'rate_limits',
	{
		key: text('key').primaryKey(),
		count: integer('count').notNull(),
		resetAt: timestamp('reset_at', { withTimezone: true }).notNull()
	},
	(t) => [index('rate_limits_reset_at_idx').on(t.resetAt)]
);

/** Contact and quote requests: stored before anyone is e-mailed, so that no lead is ever lost. */
export const leads = pgTable(
	'leads',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		kind: text('kind', { enum: ['contact', 'devis'] }).notNull(),
		name: text('name').notNull(),
		email: text('email').notNull(),
		phone: text('phone'),
		company: text('company'),
		city: text('city'),
		projectType: text('project_type'),
		message: text('message').notNull(),
		spam: boolean('spam').notNull().default(false),
		/** Why it was flagged: honeypot, too fast… */
		spamReason: text('spam_reason'),
		handled: boolean('handled').notNull().default(false),
		createdAt: createdAt(),
		notifiedAt: timestamp('notified_at', { withTimezone: true }),
		notifyError: text('notify_error'),
		...origin()
	},
	(t) => [
		index('leads_created_at_idx').on(t.createdAt),
		index('leads_email_idx').on(t.email),
		// The work waiting, and the notices that failed: the inbox's first tab and the dashboard's counts find these
		// few among years of handled leads without reading the others.
		index('leads_open_idx')
			.on(t.createdAt)
			.where(sql`not ${t.spam} and not ${t.handled}`),
		index('leads_failed_notice_idx')
			.on(t.createdAt)
			.where(sql`not ${t.spam} and ${t.notifyError} is not null and ${t.notifiedAt} is null`),
		// The spam tab and its count: a few percent of the leads, which a walk of the time index would read past.
		index('leads_spam_idx')
			.on(t.createdAt)
			.where(sql`${t.spam}`)
	]
);

/**
 * The genuine leads (not spam) counted per day in France, raw source (utm_source, else the other site, else ''),
 * page and campaign: what the dashboard reads of them (insights/queries/dashboard.ts), so that twelve months are
 * a few hundred rows, not 60,000 leads. Kept by triggers on `leads` (migration 0028), in the same statement as the
 * leads it counts: no code path can forget it. Derived: a backup writes it empty, and a restore rebuilds it as it
 * loads the leads (backup/tables.ts DERIVED_TABLES).
 */
export const leadsDaily = pgTable(
	'leads_daily',
	{
		day: date('day', { mode: 'string' }).notNull(),
		rawSource: text('raw_source').notNull(),
		sourcePage: text('source_page').notNull(),
		campaign: text('campaign').notNull(),
		leads: integer('leads').notNull()
	},
	(t) => [primaryKey({ name: 'leads_daily_pk', columns: [t.day, t.rawSource, t.sourcePage, t.campaign] })]
);

/** Every outgoing e-mail, sent or not: the audit trail of notifications. */
export const emails = pgTable(
	'emails',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		to: text('to').notNull(),
		subject: text('subject').notNull(),
		template: text('template').notNull(),
		status: text('status', { enum: ['sent', 'failed'] }).notNull(),
		error: text('error'),
		createdAt: createdAt(),
		sentAt: timestamp('sent_at', { withTimezone: true })
	},
	(t) => [index('emails_created_at_idx').on(t.createdAt)]
);

/** When each periodic job last ran (shown to admins). */
export const jobRuns = pgTable('job_runs', {
	name: text('name').primaryKey(),
	lastRunAt: timestamp('last_run_at', { withTimezone: true }).notNull(),
	detail: text('detail')
});

/**
 * Each backup the server made or tried (issue « Backups »): scheduled ones, the admin page's downloads and
 * `npm run backup`. What `/admin/sauvegarde` lists and the dashboard's « last good backup » reads. `error` is the
 * cause in words (never row data); `destinations` where the file went (`dossier`, `s3`, `téléchargement`, `fichier`).
 */
export const backupRuns = pgTable(
	'backup_runs',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		/** `schedule` | `download` | `command` */
		trigger: text('trigger').notNull(),
		startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
		finishedAt: timestamp('finished_at', { withTimezone: true }),
		/** `running` | `ok` | `failed` */
		status: text('status').notNull().default('running'),
		fileName: text('file_name'),
		bytes: bigint('bytes', { mode: 'number' }),
		destinations: jsonb('destinations').$type<string[]>().notNull().default([]),
		/** `read-back` (manifest and every checksum checked as the file was written; the name predates that) | `restored` (into a throw-away database) | null */
		verified: text('verified'),
		encrypted: boolean('encrypted').notNull().default(true),
		error: text('error')
	},
	(t) => [index('backup_runs_started_at_idx').on(t.startedAt)]
);

/**
 * Applications to the training programme (CONTRACT §5): `pending` → `approved` | `rejected`; `approved` →
 * `enrolled` once paid. One pending or approved candidature per e-mail (a partial unique index says so).
 */
export const candidatures = pgTable(
	'candidatures',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		status: text('status', { enum: ['pending', 'approved', 'rejected', 'enrolled'] })
			.notNull()
			.default('pending'),
		firstName: text('first_name').notNull(),
		lastName: text('last_name').notNull(),
		/** Lower-case, like users.email. */
		email: text('email').notNull(),
		/** E.164 (+33…). */
		phone: text('phone').notNull(),
		postalCode: text('postal_code').notNull(),
		city: text('city').notNull(),
		trade: text('trade').notNull(),
		tradeOther: text('trade_other'),
		company: text('company').notNull(),
		siret: text('siret').notNull(),
		yearsExperience: integer('years_experience').notNull(),
		teamSize: integer('team_size').notNull(),
		currentSite: text('current_site'),
		goals: jsonb('goals').$type<string[]>().notNull(),
		presence: jsonb('presence').$type<string[]>().notNull(),
		hoursPerWeek: integer('hours_per_week').notNull(),
		motivation: text('motivation').notNull(),
		consentAt: timestamp('consent_at', { withTimezone: true }).notNull(),
		spam: boolean('spam').notNull().default(false),
		spamReason: text('spam_reason'),
		createdAt: createdAt(),
		notifiedAt: timestamp('notified_at', { withTimezone: true }),
		notifyError: text('notify_error'),
		decidedAt: timestamp('decided_at', { withTimezone: true }),
		decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
		rejectionReason: text('rejection_reason'),
		/** How many Checkout Sessions were made for it: part of each session's idempotency key. */
		checkoutAttempt: integer('checkout_attempt').notNull().default(0),
		checkoutSessionId: text('checkout_session_id'),
		checkoutUrl: text('checkout_url'),
		userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
		...origin()
	},
	(t) => [
		index('candidatures_created_at_idx').on(t.createdAt),
		index('candidatures_status_idx').on(t.status),
		uniqueIndex('candidatures_open_email_unique')
			.on(t.email)
			.where(sql`status in ('pending', 'approved') and not spam`)
	]
);

/** The wizard's answers between steps, for visitors without an account: the cookie holds only the id. */
export const candidatureDrafts = pgTable(
	'candidature_drafts',
	{
		/** SHA-256 of the cookie's random token. */
		id: text('id').primaryKey(),
		answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
	},
	(t) => [index('candidature_drafts_updated_at_idx').on(t.updatedAt)]
);

/**
 * A member's subscription, as Stripe's events describe it (CONTRACT §5). Made by the first event that names it —
 * a completed checkout or a subscription event, whichever arrives first — and linked to its user once the
 * checkout is complete. `stateAt` is the Stripe time of the event whose state is applied: an older event never
 * overwrites a newer state (Stripe delivers in no guaranteed order).
 */
export const memberships = pgTable(
	'memberships',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
		candidatureId: uuid('candidature_id').references(() => candidatures.id, { onDelete: 'set null' }),
		stripeCustomerId: text('stripe_customer_id'),
		stripeSubscriptionId: text('stripe_subscription_id').notNull(),
		status: text('status').notNull(),
		currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
		stateAt: timestamp('state_at', { withTimezone: true }).notNull(),
		createdAt: createdAt()
	},
	(t) => [
		uniqueIndex('memberships_subscription_unique').on(t.stripeSubscriptionId),
		index('memberships_user_id_idx').on(t.userId)
	]
);

/** Every Stripe event received: its id is inserted in the same transaction as its effects, so it applies once. */
export const stripeEvents = pgTable('stripe_events', {
	id: text('id').primaryKey(),
	type: text('type').notNull(),
	receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
	processedAt: timestamp('processed_at', { withTimezone: true }),
	outcome: text('outcome', { enum: ['applied', 'ignored'] }).notNull()
});

/** Single-use links to set or reset a password: only the token's SHA-256 is kept. */
export const passwordTokens = pgTable(
	'password_tokens',
	{
		hash: text('hash').primaryKey(),
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		purpose: text('purpose', { enum: ['welcome', 'reset'] }).notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		usedAt: timestamp('used_at', { withTimezone: true }),
		createdAt: createdAt()
	},
	(t) => [index('password_tokens_user_id_idx').on(t.userId)]
);

/**
 * A change of e-mail address waiting for its confirmation: the link goes to the new address, and only its
 * SHA-256 is kept. Until it is followed, the account keeps its old address.
 */
export const emailChanges = pgTable(
	'email_changes',
	{
		hash: text('hash').primaryKey(),
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		newEmail: text('new_email').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		usedAt: timestamp('used_at', { withTimezone: true }),
		createdAt: createdAt()
	},
	(t) => [index('email_changes_user_id_idx').on(t.userId)]
);

/** Course modules (CONTRACT §5): Markdown written by admins, shown to members once published, in `position` order. */
export const modules = pgTable(
	'modules',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		slug: text('slug').notNull(),
		title: text('title').notNull(),
		summary: text('summary').notNull().default(''),
		content: text('content').notNull().default(''),
		position: integer('position').notNull(),
		published: boolean('published').notNull().default(false),
		durationMinutes: integer('duration_minutes').notNull().default(0),
		/** `storage:course/…` values of course files (courseFiles), or null: the lesson's video, its captions, its poster. */
		video: text('video'),
		captions: text('captions'),
		poster: text('poster'),
		/** The worksheets members keep, in the admin's order. */
		attachments: jsonb('attachments').$type<ModuleAttachment[]>().notNull().default([]),
		/** The module's quiz, or null: a module that has one is completed only by passing it. */
		quiz: jsonb('quiz').$type<ModuleQuiz>(),
		createdAt: createdAt(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
	},
	(t) => [uniqueIndex('modules_slug_unique').on(t.slug), index('modules_position_idx').on(t.position)]
);

/** A module's quiz (issue « Learning, part 3 »): the correct choices never leave the server before an attempt. */
export interface ModuleQuiz {
	/** The share of questions to get right, 1–100. */
	passPercent: number;
	questions: { prompt: string; explanation?: string; choices: { text: string; correct: boolean }[] }[];
}

export interface ModuleAttachment {
	/** `storage:course/…`, a course file of kind `attachment`. */
	value: string;
	title: string;
}

/**
 * The files an admin uploaded for the course (issue "Learning, part 2"): one row per object under `course/` in the
 * private bucket, written once its bytes were checked. What was read from the file is kept here (its kind by its
 * first bytes, size, duration, whether an MP4 starts without its index), so a module names a file by its value and
 * the server never trusts a client's word for any of it.
 */
export const courseFiles = pgTable('course_files', {
	path: text('path').primaryKey(),
	kind: text('kind', { enum: ['video', 'captions', 'poster', 'attachment'] }).notNull(),
	contentType: text('content_type').notNull(),
	size: bigint('size', { mode: 'number' }).notNull(),
	durationSeconds: integer('duration_seconds'),
	/** An MP4 whose index (moov) comes after the media: a phone downloads it all before it plays. */
	indexAtEnd: boolean('index_at_end').notNull().default(false),
	/** The name the admin's file had: shown in the editor, never used as a path. */
	originalName: text('original_name').notNull().default(''),
	createdAt: createdAt()
});

/**
 * A course file being uploaded (tus, `/api/admin/uploads`): what has arrived so far, as parts in the private bucket
 * under `uploads/<id>/`. Kept in the database so that any instance resumes it; a part is added only by an update
 * that finds the offset it started from, so two writers never both extend an upload. Gone once the file is stored
 * (or refused), or after 24 hours untouched.
 */
export const courseUploads = pgTable('course_uploads', {
	id: text('id').primaryKey(),
	kind: text('kind', { enum: ['video', 'captions', 'poster', 'attachment'] }).notNull(),
	size: bigint('size', { mode: 'number' }).notNull(),
	offset: bigint('offset', { mode: 'number' }).notNull().default(0),
	parts: jsonb('parts').$type<{ path: string; size: number }[]>().notNull().default([]),
	/** The tus Upload-Metadata as the client sent it (the kind, the file's name): shown, never trusted. */
	metadata: jsonb('metadata').$type<Record<string, string | null>>().notNull().default({}),
	createdAt: createdAt(),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
});

/** Where a member stopped in a module's video, to resume there (kept every few seconds while it plays). */
export const videoPositions = pgTable(
	'video_positions',
	{
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		moduleId: uuid('module_id')
			.notNull()
			.references(() => modules.id, { onDelete: 'cascade' }),
		seconds: integer('seconds').notNull(),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
	},
	(t) => [primaryKey({ columns: [t.userId, t.moduleId] })]
);

/**
 * Each quiz attempt a member sent, graded (the limit, one per 30 s per member and module, was spent before):
 * what was chosen (choice indexes per question), how many questions were right, and whether it passed.
 */
export const quizAttempts = pgTable(
	'quiz_attempts',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		moduleId: uuid('module_id')
			.notNull()
			.references(() => modules.id, { onDelete: 'cascade' }),
		/** 0–100: the share of questions answered right. */
		score: integer('score').notNull(),
		correct: integer('correct').notNull(),
		total: integer('total').notNull(),
		passed: boolean('passed').notNull(),
		answers: jsonb('answers').$type<number[][]>().notNull(),
		createdAt: createdAt()
	},
	(t) => [index('quiz_attempts_user_module_idx').on(t.userId, t.moduleId)]
);

/**
 * The course's own settings (one row, made with its defaults on first read): the programme's name, which an
 * attestation prints, and whether its modules open in order (« Ordre imposé »).
 */
export const courseSettings = pgTable('course_settings', {
	singleton: boolean('singleton').primaryKey().default(true),
	title: text('title').notNull(),
	sequential: boolean('sequential').notNull().default(false),
	/** What the programme teaches, as the attestation states it (Code du travail L6353-1); '' until written. */
	objectives: text('objectives').notNull().default(''),
	/**
	 * The signature and stamp an attestation prints: the private bucket's path of the image an admin uploaded
	 * (`attestations/signature-<uuid>.webp`), or null (the attestation leaves room for them).
	 */
	signaturePath: text('signature_path'),
	/**
	 * The programme sheet (issue « Formation, part 1 », point 1; Qualiopi's indicator 1): who it is for, what it asks
	 * first, how soon and at what price one starts, the disability contact, who assists and within how many working
	 * days. '' until written: `/formation` leaves an empty field out and the admin is told it is missing.
	 */
	audience: text('audience').notNull().default(''),
	prerequisites: text('prerequisites').notNull().default(''),
	accessDelay: text('access_delay').notNull().default(''),
	price: text('price').notNull().default(''),
	accessibility: text('accessibility').notNull().default(''),
	trainerName: text('trainer_name').notNull().default(''),
	trainerQualification: text('trainer_qualification').notNull().default(''),
	/** The promised delay of an answer to a member's question, in working days (1–30). */
	answerDelayDays: integer('answer_delay_days').notNull().default(2),
	/** Days after a member finishes before the cold survey goes (0–365). */
	coldSurveyDays: integer('cold_survey_days').notNull().default(60),
	/** The positioning at entry (Qualiopi's indicator 8): questions with choices, not graded; null: none asked. */
	positioning: jsonb('positioning').$type<Positioning | null>(),
	/** The five questions of the satisfaction survey (hot and cold); null: the defaults (training/satisfaction.ts). */
	surveyQuestions: jsonb('survey_questions').$type<string[] | null>(),
	updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
});

export interface Positioning {
	questions: { prompt: string; choices: { text: string }[] }[];
}

/**
 * Every sign-in, kept for the proof file (issue « Formation, part 1 », point 6): when, never from where. Sessions
 * themselves go when they expire; this row stays as long as the account.
 */
export const signIns = pgTable(
	'sign_ins',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		at: timestamp('at', { withTimezone: true }).notNull().defaultNow()
	},
	(t) => [index('sign_ins_user_at_idx').on(t.userId, t.at)]
);

/** A member's answers to the positioning at entry, once; the questions as they were asked are kept beside them. */
export const positioningAnswers = pgTable('positioning_answers', {
	userId: uuid('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	questions: jsonb('questions').$type<Positioning['questions']>().notNull(),
	answers: jsonb('answers').$type<number[][]>().notNull(),
	answeredAt: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow()
});

/**
 * « Poser une question au formateur » (D6313-3-1's assistance): a thread between one member and the admins, about a
 * module. `awaitingSince` is the time of the member's first message not answered yet (null when the trainer spoke
 * last): the admins' list orders and marks by it.
 */
export const questionThreads = pgTable(
	'question_threads',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		moduleId: uuid('module_id').references(() => modules.id, { onDelete: 'set null' }),
		/** The module's title when asked: the thread stays readable if the module is renamed or deleted. */
		moduleTitle: text('module_title').notNull(),
		createdAt: createdAt(),
		lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
		awaitingSince: timestamp('awaiting_since', { withTimezone: true }),
		firstAnsweredAt: timestamp('first_answered_at', { withTimezone: true })
	},
	(t) => [
		index('question_threads_user_idx').on(t.userId, t.lastMessageAt),
		index('question_threads_awaiting_idx').on(t.awaitingSince),
		index('question_threads_last_idx').on(t.lastMessageAt)
	]
);

export const questionMessages = pgTable(
	'question_messages',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		threadId: uuid('thread_id')
			.notNull()
			.references(() => questionThreads.id, { onDelete: 'cascade' }),
		/** Who wrote it (null once that account is deleted: a trainer's answer stays in the member's thread). */
		authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
		author: text('author').$type<'member' | 'trainer'>().notNull(),
		body: text('body').notNull(),
		/** An attached PDF or image in the private bucket (`questions/<uuid>.<ext>`), its name as sent, its type. */
		attachmentPath: text('attachment_path'),
		attachmentName: text('attachment_name'),
		attachmentType: text('attachment_type'),
		createdAt: createdAt()
	},
	(t) => [index('question_messages_thread_idx').on(t.threadId, t.createdAt)]
);

/** When an admin was last told of a member's new question: at most one e-mail per admin per member per 15 minutes. */
export const questionNotices = pgTable(
	'question_notices',
	{
		adminId: uuid('admin_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		memberId: uuid('member_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		sentAt: timestamp('sent_at', { withTimezone: true }).notNull()
	},
	(t) => [primaryKey({ columns: [t.adminId, t.memberId] })]
);

/**
 * The satisfaction survey (Qualiopi's indicator 30), hot at the end of the course and cold some weeks later: one row
 * per member and kind; `skipped` for « Plus tard » (the hot one only).
 */
export const satisfactionAnswers = pgTable(
	'satisfaction_answers',
	{
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		kind: text('kind').$type<'hot' | 'cold'>().notNull(),
		/** The questions as asked, and the ratings 1–5 in their order; null when skipped. */
		questions: jsonb('questions').$type<string[]>(),
		ratings: jsonb('ratings').$type<number[]>(),
		comment: text('comment'),
		skipped: boolean('skipped').notNull().default(false),
		answeredAt: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow()
	},
	(t) => [primaryKey({ columns: [t.userId, t.kind] }), index('satisfaction_answers_kind_idx').on(t.kind)]
);

/** The cold survey's e-mails: claimed (one row per member) before the first goes, the reminder claimed the same way. */
export const coldSurveys = pgTable('cold_surveys', {
	userId: uuid('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
	remindedAt: timestamp('reminded_at', { withTimezone: true })
});

/**
 * An « attestation de fin de formation » (issue « Learning, part 3 », point 3): one per member and course, issued
 * once every published module was completed and kept as it was issued — the PDF in the private bucket, its SHA-256
 * here, so that the public page `/attestation/{code}` tells the very document from an altered one. What it printed
 * of the member (name, modules) is blanked when their account is deleted; the row stays, so that its page says it
 * is no longer valid rather than unknown.
 */
export const attestations = pgTable(
	'attestations',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		/** Unguessable (128 random bits, base32): the public page's address. */
		code: text('code').notNull(),
		userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
		memberName: text('member_name'),
		programme: text('programme').notNull(),
		firstCompletedAt: timestamp('first_completed_at', { withTimezone: true }).notNull(),
		lastCompletedAt: timestamp('last_completed_at', { withTimezone: true }).notNull(),
		totalMinutes: integer('total_minutes').notNull(),
		modules: jsonb('modules').$type<{ title: string; completedAt: string }[]>(),
		sha256: text('sha256').notNull(),
		/** The issued PDF in the private bucket; null once the account is deleted (the file goes with it). */
		objectPath: text('object_path'),
		issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
		revokedReason: text('revoked_reason')
	},
	(t) => [
		uniqueIndex('attestations_code_unique').on(t.code),
		uniqueIndex('attestations_user_unique').on(t.userId)
	]
);

/**
 * « Reprenez là où vous en étiez » (issue « Learning, part 3 », point 5): when a member was last reminded of the
 * course, and whether they asked for no more (a one-click List-Unsubscribe, or the switch on /profil).
 */
export const courseReminders = pgTable('course_reminders', {
	userId: uuid('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
	unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true })
});

/** A member's completed modules: one row per (user, module), whatever the number of clicks. */
export const moduleProgress = pgTable(
	'module_progress',
	{
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		moduleId: uuid('module_id')
			.notNull()
			.references(() => modules.id, { onDelete: 'cascade' }),
		completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow()
	},
	(t) => [primaryKey({ columns: [t.userId, t.moduleId] })]
);

/**
 * A second factor (issue "Trust", point 2): a TOTP key (RFC 6238), encrypted with a key derived from SIGNING_SECRET
 * so that a copy of the database alone gives no codes. `confirmedAt` is null while the user is enrolling (the key
 * is shown, no code typed yet); `lastStep` is the 30-second step of the last code accepted, so that a code is
 * refused once used.
 */
export const totpFactors = pgTable('totp_factors', {
	userId: uuid('user_id')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	encryptedKey: text('encrypted_key').notNull(),
	confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
	lastStep: bigint('last_step', { mode: 'number' }),
	createdAt: createdAt()
});

/**
 * A single-use token of an account, kept as its SHA-256 with its end of life: spent by the UPDATE that checks it
 * (`used_at`), deleted by the daily maintenance once past its time.
 */
const singleUseTokens = (name: string) =>
	pgTable(
		name,
		{
			hash: text('hash').primaryKey(),
			userId: uuid('user_id')
				.notNull()
				.references(() => users.id, { onDelete: 'cascade' }),
			expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
			usedAt: timestamp('used_at', { withTimezone: true }),
			createdAt: createdAt()
		},
		(t) => [index(`${name}_user_id_idx`).on(t.userId)]
	);

/**
 * Between the password and the code (issue "Trust, part 2", point 5): the cookie holds a random token, only its
 * SHA-256 is here. Spent by the sign-in it completes, and deleted by a password change or reset, so that it is
 * single use and bound to the password that opened it. A row is needed: a signed token alone could be made by
 * anyone holding SIGNING_SECRET (a backup archive), and could not be spent.
 */
export const pendingSignIns = singleUseTokens('pending_sign_ins');

/**
 * "Reconnaître ce navigateur" (issue "Trust, part 2", point 3): a single-use link, e-mailed to the owner while
 * strangers keep the account's sign-in slowed down, that makes the browser which opens it a known one.
 */
export const deviceLinks = singleUseTokens('device_links');

/** One-time recovery codes (ten per enrolment), stored as SHA-256: each opens one sign-in when the phone is lost. */
export const recoveryCodes = pgTable(
	'recovery_codes',
	{
		hash: text('hash').primaryKey(),
		userId: uuid('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		usedAt: timestamp('used_at', { withTimezone: true }),
		createdAt: createdAt()
	},
	(t) => [index('recovery_codes_user_id_idx').on(t.userId)]
);

/**
 * What admins did (issue "Trust", point 3): one row per admin action, written in the transaction of the action
 * itself, so that an action without its row cannot exist. Append-only: a trigger (migration 0009) refuses any
 * update, and any delete but the retention's of rows past three years (`atelier.audit_retention` set for the
 * transaction). The actor's e-mail is copied so that the trail still names who did it once the account is gone.
 */
export const auditEvents = pgTable(
	'audit_events',
	{
		id: uuid('id').primaryKey().defaultRandom(),
		at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
		/** No foreign key: deleting an admin's account must not erase (or block) what they did. */
		actorId: uuid('actor_id'),
		actorEmail: text('actor_email').notNull(),
		/** `candidature.approved`, `lead.deleted`… (AUDIT_KINDS in src/lib/audit.ts). */
		kind: text('kind').notNull(),
		/** The record acted on: `candidature`, `lead`, `module`, `site_image`, `user`, `backup`… and its id or key. */
		subjectType: text('subject_type').notNull(),
		subjectId: text('subject_id'),
		/** `{ field: { before, after } }` for changed fields: never a secret, never personal free text. */
		changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>()
	},
	(t) => [
		index('audit_events_at_idx').on(t.at),
		index('audit_events_actor_at_idx').on(t.actorId, t.at),
		index('audit_events_kind_at_idx').on(t.kind, t.at)
	]
);

export type Lead = typeof leads.$inferSelect;
export type Module = typeof modules.$inferSelect;
export type CourseFile = typeof courseFiles.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type Candidature = typeof candidatures.$inferSelect;

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type SiteImage = typeof siteImages.$inferSelect;
export type AuditEvent = typeof auditEvents.$inferSelect;

/**
 * Which release migrated the database, and to what (issue "Durable and upgradable", point 3): an older build that
 * finds a migration it does not know refuses to start and names the release that made it.
 */
export const appReleases = pgTable('app_releases', {
	id: uuid('id').primaryKey().defaultRandom(),
	version: text('version').notNull(),
	commit: text('commit').notNull(),
	/** The newest migration applied by that release (its tag). */
	migration: text('migration').notNull(),
	at: timestamp('at', { withTimezone: true }).notNull().defaultNow()
});

/**
 * This installation's id (one row, made by the first instance that needs it; shared by every instance on the
 * database, and carried by its backups, so a site restored on a new server stays itself). Scheduled backups carry
 * it in their names: two sites given one folder or bucket never take each other's files (backup/destinations.ts).
 */
export const installation = pgTable('installation', {
	singleton: boolean('singleton').primaryKey().default(true),
	id: text('id').notNull(),
	createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
});

/**
 * Visits per day, page, source and device (insights/audience.ts): counts only, nothing that identifies a person.
 * `visitors` counts the visitors of that row; a visitor of several pages is one in audience_visitors. `entries` counts
 * the visits that began on that row's page (a visit's source is where it came from: each page of the visit is
 * counted under it). The indexes serve the dashboard's filters (a page, a source, a campaign, a device).
 */
export const audienceDaily = pgTable(
	'audience_daily',
	{
		day: date('day', { mode: 'string' }).notNull(),
		path: text('path').notNull(),
		referrerHost: text('referrer_host').notNull().default(''),
		utmSource: text('utm_source').notNull().default(''),
		utmMedium: text('utm_medium').notNull().default(''),
		utmCampaign: text('utm_campaign').notNull().default(''),
		device: text('device', { enum: ['mobile', 'tablet', 'desktop'] }).notNull(),
		views: integer('views').notNull(),
		visitors: integer('visitors').notNull(),
		entries: integer('entries').notNull().default(0)
	},
	(t) => [
		primaryKey({
			name: 'audience_daily_pk',
			columns: [t.day, t.path, t.referrerHost, t.utmSource, t.utmMedium, t.utmCampaign, t.device]
		}),
		index('audience_daily_path_idx').on(t.path, t.day),
		// The source as the dashboard names it (insights/source-names.ts; the function is migration 0022's).
		index('audience_daily_source_idx').on(sql`atelier_source_name(${t.utmSource}, ${t.referrerHost})`, t.day),
		index('audience_daily_campaign_idx')
			.on(t.utmCampaign, t.day)
			.where(sql`${t.utmCampaign} <> ''`),
		index('audience_daily_device_idx').on(t.device, t.day)
	]
);

/** The whole site per day: distinct visitors, visits and page views (the dashboard's daily series reads only this). */
export const audienceVisitors = pgTable('audience_visitors', {
	day: date('day', { mode: 'string' }).primaryKey(),
	visitors: integer('visitors').notNull(),
	views: integer('views').notNull().default(0),
	visits: integer('visits').notNull().default(0)
});

/**
 * audience_daily added up per page and per source (the host, else utm_source, else '' for direct), written in the
 * same statement: a year's top pages and sources read a few thousand rows a month, not every row of every day.
 */
export const audiencePages = pgTable(
	'audience_pages',
	{
		day: date('day', { mode: 'string' }).notNull(),
		path: text('path').notNull(),
		views: integer('views').notNull(),
		visitors: integer('visitors').notNull(),
		entries: integer('entries').notNull().default(0)
	},
	(t) => [primaryKey({ name: 'audience_pages_pk', columns: [t.day, t.path] })]
);

export const audienceSources = pgTable(
	'audience_sources',
	{
		day: date('day', { mode: 'string' }).notNull(),
		source: text('source').notNull(),
		views: integer('views').notNull(),
		visits: integer('visits').notNull().default(0)
	},
	(t) => [primaryKey({ name: 'audience_sources_pk', columns: [t.day, t.source] })]
);

/** audience_daily's campaigns (`utm_campaign` not empty) added up per campaign and medium. */
export const audienceCampaigns = pgTable(
	'audience_campaigns',
	{
		day: date('day', { mode: 'string' }).notNull(),
		campaign: text('campaign').notNull(),
		medium: text('medium').notNull(),
		views: integer('views').notNull(),
		visits: integer('visits').notNull()
	},
	(t) => [primaryKey({ name: 'audience_campaigns_pk', columns: [t.day, t.campaign, t.medium] })]
);

/** audience_daily added up per device class (a year's device table reads a thousand rows). */
export const audienceDevices = pgTable(
	'audience_devices',
	{
		day: date('day', { mode: 'string' }).notNull(),
		device: text('device', { enum: ['mobile', 'tablet', 'desktop'] }).notNull(),
		views: integer('views').notNull(),
		visits: integer('visits').notNull()
	},
	(t) => [primaryKey({ name: 'audience_devices_pk', columns: [t.day, t.device] })]
);

/**
 * Steps counted per day that no other table keeps (insights/audience.ts): `candidature-draft-started` (a draft is
 * deleted once sent or old, so the funnel could not count them afterwards).
 */
export const audienceEvents = pgTable(
	'audience_events',
	{
		day: date('day', { mode: 'string' }).notNull(),
		kind: text('kind').notNull(),
		count: integer('count').notNull()
	},
	(t) => [primaryKey({ name: 'audience_events_pk', columns: [t.day, t.kind] })]
);

/**
 * The day's salt of the visitors' hashes (insights/visits.ts): created by the first instance that counts a visit that
 * day, read by all, so that one person is one visitor whatever instance answers. Deleted once its day has ended,
 * with the two tables below; never in a backup (backup/tables.ts): kept, it would link a day's hashes to people.
 */
export const audienceSalts = pgTable('audience_salts', {
	day: date('day', { mode: 'string' }).primaryKey(),
	salt: text('salt').notNull()
});

/**
 * Each visitor of the day, by their salted hash alone: the source of their current visit (what their next pages are
 * counted under) and where they first came from (what a lead or a candidature they send is attributed to). No
 * address, no browser string, no cookie; deleted with the day's salt.
 */
export const audienceLandings = pgTable(
	'audience_landings',
	{
		day: date('day', { mode: 'string' }).notNull(),
		visitor: text('visitor').notNull(),
		visitReferrerHost: text('visit_referrer_host').notNull(),
		visitUtmSource: text('visit_utm_source').notNull(),
		visitUtmMedium: text('visit_utm_medium').notNull(),
		visitUtmCampaign: text('visit_utm_campaign').notNull(),
		firstPath: text('first_path').notNull(),
		firstReferrerHost: text('first_referrer_host').notNull(),
		firstUtmSource: text('first_utm_source').notNull(),
		firstUtmMedium: text('first_utm_medium').notNull(),
		firstUtmCampaign: text('first_utm_campaign').notNull()
	},
	(t) => [primaryKey({ name: 'audience_landings_pk', columns: [t.day, t.visitor] })]
);

/** Which rows of audience_daily (by a hash of the row) each visitor of the day was counted in: once per row. */
export const audienceVisitorRows = pgTable(
	'audience_visitor_rows',
	{
		day: date('day', { mode: 'string' }).notNull(),
		visitor: text('visitor').notNull(),
		row: text('row').notNull()
	},
	(t) => [primaryKey({ name: 'audience_visitor_rows_pk', columns: [t.day, t.visitor, t.row] })]
);

/**
 * The site's words (issue « Content, part 1 »): each public page that carries text, the company file and every
 * article is an entry. What visitors read is its live revision; the admin's work in progress is the draft beside
 * it (at most one, possibly half written). `version` moves with every change to the entry (a draft saved, a
 * publish, a restore): a write names the version it was made from, and a stale one is refused (409).
 */
export const contentEntries = pgTable(
	'content_entries',
	{
		id: text('id').primaryKey(),
		/** 'page' | 'article' | 'company'. */
		kind: text('kind').notNull(),
		/** The address it is served at; null for the company file (no page of its own). */
		path: text('path'),
		version: integer('version').notNull().default(1),
		/** The revision visitors read; null for an article never published. */
		liveRevision: integer('live_revision'),
		draft: jsonb('draft'),
		draftSavedAt: timestamp('draft_saved_at', { withTimezone: true }),
		/** Who saved the draft last: the list says whose work is waiting. */
		draftSavedBy: uuid('draft_saved_by').references(() => users.id, { onDelete: 'set null' }),
		/** An article's date: its first publication. */
		firstPublishedAt: timestamp('first_published_at', { withTimezone: true }),
		/** « Publier le … à … »: when the draft goes live by itself (content/schedule.ts); null when not scheduled. */
		scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
		/** Who scheduled it: the publish is theirs in the revisions and the audit trail. */
		scheduledBy: uuid('scheduled_by').references(() => users.id, { onDelete: 'set null' }),
		updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
		createdAt: createdAt()
	},
	(t) => [
		uniqueIndex('content_entries_path_unique').on(t.path),
		index('content_entries_scheduled_idx')
			.on(t.scheduledAt)
			.where(sql`${t.scheduledAt} is not null`)
	]
);

/** Every published state of an entry, numbered from 1; never rewritten (a restore publishes a copy). */
export const contentRevisions = pgTable(
	'content_revisions',
	{
		entryId: text('entry_id')
			.notNull()
			.references(() => contentEntries.id, { onDelete: 'cascade' }),
		n: integer('n').notNull(),
		fields: jsonb('fields').notNull(),
		publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
		publishedBy: uuid('published_by').references(() => users.id, { onDelete: 'set null' })
	},
	(t) => [primaryKey({ name: 'content_revisions_pk', columns: [t.entryId, t.n] })]
);

/** An address that moved: `from` answers 301 to `to` (chains collapsed when written, loops refused). */
export const contentRedirects = pgTable('content_redirects', {
	fromPath: text('from_path').primaryKey(),
	toPath: text('to_path').notNull(),
	createdAt: createdAt()
});
