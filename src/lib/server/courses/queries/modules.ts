/** The courses domain's SQL, and nothing else: each function takes the database or a transaction. */
import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { builtOnce } from '../../db/built-once';
import { rowsOf } from '../../db/migrate';
import {
	attestations,
	courseFiles,
	courseReminders,
	courseSettings,
	courseUploads,
	moduleProgress,
	quizAttempts,
	modules,
	users,
	videoPositions,
	type CourseFile,
	type Module
} from '../../db/schema';
import type { CatalogueModule } from '../reader-cache';

export type { CourseFile, Module };
export type NewModule = typeof modules.$inferInsert;

export const allModules = (db: DbOrTx): Promise<Module[]> =>
	db.select().from(modules).orderBy(asc(modules.position), asc(modules.createdAt));

/**
 * What a reader sees of every module, published or not, in the admin's order: the catalogue a reader cache keeps
 * (reader-cache.ts). No content: a module's HTML is rendered once per version (service.moduleHtml), so its Markdown is
 * read only when that version is not rendered yet.
 */
export const catalogueModules = (db: DbOrTx): Promise<CatalogueModule[]> =>
	db
		.select({
			id: modules.id,
			slug: modules.slug,
			title: modules.title,
			summary: modules.summary,
			durationMinutes: modules.durationMinutes,
			published: modules.published,
			updatedAt: modules.updatedAt,
			video: modules.video,
			captions: modules.captions,
			poster: modules.poster,
			attachments: modules.attachments,
			quiz: modules.quiz
		})
		.from(modules)
		.orderBy(asc(modules.position), asc(modules.createdAt));

/** The ids of the modules a reader completed. */
export const completedModuleIds = async (db: DbOrTx, userId: string): Promise<string[]> =>
	(await completedModuleIdsQuery(db).execute({ userId })).map((row) => row.moduleId);

// Read at a reader's first page, then again after each change of their progress: built once (db/built-once.ts).
const completedModuleIdsQuery = builtOnce((db) =>
	db
		.select({ moduleId: moduleProgress.moduleId })
		.from(moduleProgress)
		.where(eq(moduleProgress.userId, sql.placeholder('userId')))
		.prepare('completed_module_ids')
);

/** A module's Markdown, with the version it is (updatedAt), or nothing when the module is gone. */
export const moduleContent = async (db: DbOrTx, id: string) =>
	(
		await db
			.select({ content: modules.content, updatedAt: modules.updatedAt })
			.from(modules)
			.where(eq(modules.id, id))
	)[0];

export const moduleById = async (db: DbOrTx, id: string) =>
	(await db.select().from(modules).where(eq(modules.id, id)))[0];

export const moduleBySlug = async (db: DbOrTx, slug: string) =>
	(await db.select().from(modules).where(eq(modules.slug, slug)))[0];

export async function nextPosition(db: DbOrTx): Promise<number> {
	const [row] = await db.select({ max: sql<number | null>`max(${modules.position})` }).from(modules);
	return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
}

/** Throws PostgreSQL's unique violation (23505) on a taken slug. */
export async function insertModule(db: DbOrTx, values: NewModule): Promise<Module> {
	const [row] = await db.insert(modules).values(values).returning();
	return row!;
}

export async function updateModule(db: DbOrTx, id: string, changes: Partial<NewModule>) {
	const [row] = await db
		.update(modules)
		.set({ ...changes, updatedAt: new Date() })
		.where(eq(modules.id, id))
		.returning();
	return row;
}

export async function deleteModule(db: DbOrTx, id: string): Promise<boolean> {
	const deleted = await db.delete(modules).where(eq(modules.id, id)).returning({ id: modules.id });
	return deleted.length === 1;
}

/** Rewrites every position from an ordered list of ids (0, 1, 2…). */
export async function setPositions(db: DbOrTx, orderedIds: string[]): Promise<void> {
	for (const [position, id] of orderedIds.entries())
		await db.update(modules).set({ position }).where(eq(modules.id, id));
}

/** One row per (user, module): a second completion, simultaneous or not, changes nothing. */
export async function markComplete(db: DbOrTx, userId: string, moduleId: string): Promise<void> {
	await db.insert(moduleProgress).values({ userId, moduleId }).onConflictDoNothing();
}

export async function markIncomplete(db: DbOrTx, userId: string, moduleId: string): Promise<void> {
	await db
		.delete(moduleProgress)
		.where(and(eq(moduleProgress.userId, userId), eq(moduleProgress.moduleId, moduleId)));
}

// ——— Course files and their uploads ———

export type CourseUpload = typeof courseUploads.$inferSelect;

export async function insertUpload(db: DbOrTx, values: typeof courseUploads.$inferInsert): Promise<void> {
	await db.insert(courseUploads).values(values);
}

export const uploadById = async (db: DbOrTx, id: string): Promise<CourseUpload | undefined> =>
	(await db.select().from(courseUploads).where(eq(courseUploads.id, id)))[0];

/**
 * Adds a part to an upload only if it still ends at `from`: of two writers that started at the same offset (two
 * PATCHes, two instances), one extends it, the other finds nothing to update and gives its part up.
 */
export async function appendPart(
	db: DbOrTx,
	id: string,
	from: number,
	part: { path: string; size: number }
): Promise<boolean> {
	const updated = await db
		.update(courseUploads)
		.set({
			offset: sql`${courseUploads.offset} + ${part.size}`,
			parts: sql`${courseUploads.parts} || ${JSON.stringify([part])}::jsonb`,
			updatedAt: new Date()
		})
		.where(and(eq(courseUploads.id, id), eq(courseUploads.offset, from)))
		.returning({ id: courseUploads.id });
	return updated.length === 1;
}

export async function deleteUpload(db: DbOrTx, id: string): Promise<CourseUpload | undefined> {
	const [row] = await db.delete(courseUploads).where(eq(courseUploads.id, id)).returning();
	return row;
}

/** Uploads nobody touched since `before`: abandoned. */
export const staleUploads = (db: DbOrTx, before: Date) =>
	db.select().from(courseUploads).where(lt(courseUploads.updatedAt, before));

export async function insertCourseFile(db: DbOrTx, values: typeof courseFiles.$inferInsert): Promise<void> {
	await db.insert(courseFiles).values(values);
}

export const courseFilesByPath = (db: DbOrTx, paths: string[]): Promise<CourseFile[]> =>
	paths.length ? db.select().from(courseFiles).where(inArray(courseFiles.path, paths)) : Promise.resolve([]);

export async function deleteCourseFile(db: DbOrTx, path: string): Promise<void> {
	await db.delete(courseFiles).where(eq(courseFiles.path, path));
}

/** Course files stored but named by no module, older than `before`: uploaded, then never saved into a module. */
export const unusedCourseFiles = (db: DbOrTx, before: Date): Promise<CourseFile[]> =>
	db
		.select()
		.from(courseFiles)
		.where(
			and(
				lt(courseFiles.createdAt, before),
				sql`not exists (select 1 from ${modules} where ${modules.video} = 'storage:' || ${courseFiles.path}
					or ${modules.captions} = 'storage:' || ${courseFiles.path}
					or ${modules.poster} = 'storage:' || ${courseFiles.path}
					or ${modules.attachments} @> jsonb_build_array(jsonb_build_object('value', 'storage:' || ${courseFiles.path})))`
			)
		);

/** Whether any module still names `value` (as its video, captions, poster or one of its attachments). */
export async function isCourseValueUsed(db: DbOrTx, value: string): Promise<boolean> {
	const [row] = await db
		.select({ n: count() })
		.from(modules)
		.where(
			sql`${modules.video} = ${value} or ${modules.captions} = ${value} or ${modules.poster} = ${value}
				or ${modules.attachments} @> ${JSON.stringify([{ value }])}::jsonb`
		);
	return (row?.n ?? 0) > 0;
}

/** How much the course's files take, and how many there are. */
export async function courseFilesTotal(db: DbOrTx): Promise<{ files: number; bytes: number }> {
	const [row] = await db
		.select({ files: count(), bytes: sql<string | null>`sum(${courseFiles.size})` })
		.from(courseFiles);
	return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) };
}

/** The module that names a course file, and how (its attachment's title when it is one): who may fetch it. */
export async function moduleOfCourseValue(
	db: DbOrTx,
	value: string
): Promise<
	Pick<Module, 'id' | 'slug' | 'published' | 'attachments' | 'video' | 'captions' | 'poster'> | undefined
> {
	const [row] = await db
		.select({
			id: modules.id,
			slug: modules.slug,
			published: modules.published,
			attachments: modules.attachments,
			video: modules.video,
			captions: modules.captions,
			poster: modules.poster
		})
		.from(modules)
		.where(
			sql`${modules.video} = ${value} or ${modules.captions} = ${value} or ${modules.poster} = ${value}
				or ${modules.attachments} @> ${JSON.stringify([{ value }])}::jsonb`
		)
		.orderBy(sql`${modules.published} desc`)
		.limit(1);
	return row;
}

// ——— Where members stopped in a video ———

export async function saveVideoPosition(
	db: DbOrTx,
	userId: string,
	moduleId: string,
	seconds: number
): Promise<void> {
	await db
		.insert(videoPositions)
		.values({ userId, moduleId, seconds })
		.onConflictDoUpdate({
			target: [videoPositions.userId, videoPositions.moduleId],
			set: { seconds, updatedAt: new Date() }
		});
}

export const videoPositionsOf = (db: DbOrTx, userId: string) =>
	db
		.select({ moduleId: videoPositions.moduleId, seconds: videoPositions.seconds })
		.from(videoPositions)
		.where(eq(videoPositions.userId, userId));

/** Where the attestation's signature image is stored; null when none was uploaded. */
export async function signaturePathRow(db: DbOrTx): Promise<string | null> {
	const [row] = await db.select({ path: courseSettings.signaturePath }).from(courseSettings);
	return row?.path ?? null;
}

/**
 * The signature's path, its row locked until the transaction ends (made with `title` when there is none yet): of two
 * admins changing it at once, the second reads what the first wrote, and deletes the right file.
 */
export async function lockSignaturePath(tx: DbOrTx, title: string): Promise<string | null> {
	await tx.insert(courseSettings).values({ singleton: true, title }).onConflictDoNothing();
	const [row] = await tx.select({ path: courseSettings.signaturePath }).from(courseSettings).for('update');
	return row?.path ?? null;
}

/** Points the settings at a new signature image, or none (after lockSignaturePath, in its transaction). */
export async function saveSignaturePath(tx: DbOrTx, path: string | null): Promise<void> {
	await tx
		.update(courseSettings)
		.set({ signaturePath: path, updatedAt: new Date() })
		.where(eq(courseSettings.singleton, true));
}

// ——— Quiz attempts ———

export type QuizAttempt = typeof quizAttempts.$inferSelect;

export async function insertQuizAttempt(
	db: DbOrTx,
	values: typeof quizAttempts.$inferInsert
): Promise<QuizAttempt> {
	const [row] = await db.insert(quizAttempts).values(values).returning();
	return row!;
}

/** A member's attempts at a module's quiz, the latest first. */
export const quizAttemptsOf = (db: DbOrTx, userId: string, moduleId: string): Promise<QuizAttempt[]> =>
	db
		.select()
		.from(quizAttempts)
		.where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.moduleId, moduleId)))
		.orderBy(desc(quizAttempts.createdAt));

// ——— Attestations ———

export type Attestation = typeof attestations.$inferSelect;

/** When a reader completed each module they completed. */
export const completionsOf = (db: DbOrTx, userId: string) =>
	db
		.select({ moduleId: moduleProgress.moduleId, completedAt: moduleProgress.completedAt })
		.from(moduleProgress)
		.where(eq(moduleProgress.userId, userId));

/** Per module, a reader's best quiz score and how many attempts it took: the attestation's assessment. */
export const bestQuizScoresOf = (db: DbOrTx, userId: string) =>
	db
		.select({
			moduleId: quizAttempts.moduleId,
			best: sql<number>`max(${quizAttempts.score})::int`,
			attempts: sql<number>`count(*)::int`
		})
		.from(quizAttempts)
		.where(eq(quizAttempts.userId, userId))
		.groupBy(quizAttempts.moduleId);

export const attestationOfUser = async (db: DbOrTx, userId: string): Promise<Attestation | undefined> =>
	(await db.select().from(attestations).where(eq(attestations.userId, userId)))[0];

export const attestationByCode = async (db: DbOrTx, code: string): Promise<Attestation | undefined> =>
	(await db.select().from(attestations).where(eq(attestations.code, code)))[0];

export const attestationById = async (db: DbOrTx, id: string): Promise<Attestation | undefined> =>
	(await db.select().from(attestations).where(eq(attestations.id, id)))[0];

/** The member's one attestation: of two issues at once, the second inserts nothing (and gets undefined). */
export async function insertAttestation(
	db: DbOrTx,
	values: typeof attestations.$inferInsert
): Promise<Attestation | undefined> {
	const [row] = await db.insert(attestations).values(values).onConflictDoNothing().returning();
	return row;
}

export async function revokeAttestation(
	db: DbOrTx,
	id: string,
	reason: string
): Promise<Attestation | undefined> {
	const [row] = await db
		.update(attestations)
		.set({ revokedAt: new Date(), revokedReason: reason })
		.where(and(eq(attestations.id, id), sql`${attestations.revokedAt} is null`))
		.returning();
	return row;
}

/** An account deleted: what its attestation printed of the person goes; the row stays, withdrawn. */
export async function forgetAttestationsOf(db: DbOrTx, userId: string): Promise<string[]> {
	const files = await db
		.select({ objectPath: attestations.objectPath })
		.from(attestations)
		.where(eq(attestations.userId, userId));
	await db
		.update(attestations)
		.set({ userId: null, memberName: null, modules: null, objectPath: null })
		.where(eq(attestations.userId, userId));
	return files.flatMap((file) => (file.objectPath ? [file.objectPath] : []));
}

/** Every attestation issued, the newest first, with its holder's address while they have an account. */
export const allAttestations = (db: DbOrTx) =>
	db
		.select({
			id: attestations.id,
			code: attestations.code,
			memberName: attestations.memberName,
			email: users.email,
			programme: attestations.programme,
			issuedAt: attestations.issuedAt,
			revokedAt: attestations.revokedAt,
			revokedReason: attestations.revokedReason,
			withdrawn: sql<boolean>`${attestations.userId} is null`
		})
		.from(attestations)
		.leftJoin(users, eq(users.id, attestations.userId))
		.orderBy(desc(attestations.issuedAt));

// ——— Reminders ———

/**
 * Members who may be reminded at `now`: following the course (active, or past due within the paid period), not
 * unsubscribed, not reminded in the last `gapDays`, and without progress (a completion, a quiz attempt, a video
 * position) for `idleDays` — counted from the day they joined when they never started.
 */
export async function reminderCandidates(
	db: DbOrTx,
	now: Date,
	idleDays: number,
	gapDays: number
): Promise<{ id: string; name: string; email: string }[]> {
	const at = now.toISOString();
	const rows = rowsOf<{ id: string; name: string; email: string }>(
		await db.execute(sql`
			select u.id, u.name, u.email
			from users u
			join lateral (
				select status, current_period_end, created_at from memberships
				where user_id = u.id order by created_at desc limit 1
			) m on true
			left join course_reminders r on r.user_id = u.id
			where (m.status in ('active', 'trialing')
					or (m.status = 'past_due' and m.current_period_end > ${at}::timestamptz))
				and r.unsubscribed_at is null
				and (r.last_sent_at is null
					or r.last_sent_at <= ${at}::timestamptz - make_interval(days => ${gapDays}))
				and coalesce(greatest(
					(select max(p.completed_at) from module_progress p where p.user_id = u.id),
					(select max(q.created_at) from quiz_attempts q where q.user_id = u.id),
					(select max(v.updated_at) from video_positions v where v.user_id = u.id)
				), m.created_at) <= ${at}::timestamptz - make_interval(days => ${idleDays})
			order by u.id`)
	);
	return rows.map((row) => ({ id: String(row.id), name: String(row.name), email: String(row.email) }));
}

/**
 * Takes a member's reminder turn: true when this call recorded a reminder at `now` (none sent in the last `gapDays`,
 * not unsubscribed), false otherwise — one statement, so that two senders never both send.
 */
export async function claimReminder(
	db: DbOrTx,
	userId: string,
	now: Date,
	gapDays: number
): Promise<boolean> {
	const since = new Date(now.getTime() - gapDays * 24 * 60 * 60 * 1000);
	const claimed = await db
		.insert(courseReminders)
		.values({ userId, lastSentAt: now })
		.onConflictDoUpdate({
			target: courseReminders.userId,
			set: { lastSentAt: now },
			setWhere: sql`${courseReminders.unsubscribedAt} is null and (${courseReminders.lastSentAt} is null
				or ${courseReminders.lastSentAt} <= ${since.toISOString()}::timestamptz)`
		})
		.returning({ userId: courseReminders.userId });
	return claimed.length === 1;
}

/** Reminders on or off for a member (the one-click link, the switch on /profil). */
export async function setRemindersOff(
	db: DbOrTx,
	userId: string,
	off: boolean,
	now = new Date()
): Promise<void> {
	await db
		.insert(courseReminders)
		.values({ userId, unsubscribedAt: off ? now : null })
		.onConflictDoUpdate({ target: courseReminders.userId, set: { unsubscribedAt: off ? now : null } });
}

export const remindersOf = async (db: DbOrTx, userId: string) =>
	(
		await db
			.select({ lastSentAt: courseReminders.lastSentAt, unsubscribedAt: courseReminders.unsubscribedAt })
			.from(courseReminders)
			.where(eq(courseReminders.userId, userId))
	)[0] ?? { lastSentAt: null, unsubscribedAt: null };
