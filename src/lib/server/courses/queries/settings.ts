/** The course's settings (the programme sheet) and the positioning at entry: one row each. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { courseSettings, positioningAnswers } from '../../db/schema';
import type { ReaderSettings } from '../reader-cache';

// ——— The course's settings ———

/** The settings an admin writes (the signature has its own; the time is the row's). */
export type CourseSettings = Omit<ReaderSettings, 'updatedAt'>;

/** The one row of settings; null when nobody saved any yet. */
export async function courseSettingsRow(db: DbOrTx): Promise<ReaderSettings | null> {
	const [row] = await db
		.select({
			title: courseSettings.title,
			sequential: courseSettings.sequential,
			objectives: courseSettings.objectives,
			audience: courseSettings.audience,
			prerequisites: courseSettings.prerequisites,
			accessDelay: courseSettings.accessDelay,
			price: courseSettings.price,
			accessibility: courseSettings.accessibility,
			trainerName: courseSettings.trainerName,
			trainerQualification: courseSettings.trainerQualification,
			answerDelayDays: courseSettings.answerDelayDays,
			coldSurveyDays: courseSettings.coldSurveyDays,
			positioning: courseSettings.positioning,
			surveyQuestions: courseSettings.surveyQuestions,
			updatedAt: courseSettings.updatedAt
		})
		.from(courseSettings);
	return row ?? null;
}

export async function saveCourseSettings(db: DbOrTx, settings: CourseSettings): Promise<Date> {
	const updatedAt = new Date();
	await db
		.insert(courseSettings)
		.values({ singleton: true, ...settings, updatedAt })
		.onConflictDoUpdate({ target: courseSettings.singleton, set: { ...settings, updatedAt } });
	return updatedAt;
}

// ——— The positioning at entry ———

export async function hasAnsweredPositioning(db: DbOrTx, userId: string): Promise<boolean> {
	const [row] = await db
		.select({ userId: positioningAnswers.userId })
		.from(positioningAnswers)
		.where(eq(positioningAnswers.userId, userId));
	return !!row;
}

export async function positioningAnswersOf(db: DbOrTx, userId: string) {
	const [row] = await db.select().from(positioningAnswers).where(eq(positioningAnswers.userId, userId));
	return row ?? null;
}

/** Once per member: false when they had already answered (the first answer stands). */
export async function insertPositioningAnswers(
	db: DbOrTx,
	row: typeof positioningAnswers.$inferInsert
): Promise<boolean> {
	const inserted = await db
		.insert(positioningAnswers)
		.values(row)
		.onConflictDoNothing()
		.returning({ userId: positioningAnswers.userId });
	return inserted.length > 0;
}
