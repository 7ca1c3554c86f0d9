/**
 * The course's own settings (the programme's name, whether the order is imposed), read through the reader cache.
 * The name is the programme's one name: each read hands it to `$lib/company`, where every page, e-mail and document
 * reads it (`company.training.name`).
 */
import { companyFileProgrammeName, showProgrammeName } from '$lib/company';
import type { Db, DbOrTx } from '../db';
import { changesOf, recordAudit, type Actor } from '../audit';
import * as queries from './queries';
import type { ReaderCache, ReaderSettings } from './reader-cache';

/** Until an admin names it, the programme is the one the company file sells. */
const defaultSettings = (): ReaderSettings => ({
	title: companyFileProgrammeName(),
	sequential: false,
	objectives: ''
});

export const courseSettingsOf = (db: DbOrTx, readers: ReaderCache): Promise<ReaderSettings> =>
	readers.settingsOf(async () => {
		const row = await queries.courseSettingsRow(db);
		showProgrammeName(row?.title ?? null);
		return row ?? defaultSettings();
	});

/** Saves the settings; objectives left out (an older client's PUT) are kept as they are. */
export async function updateCourseSettings(
	db: Db,
	readers: ReaderCache,
	input: Omit<ReaderSettings, 'objectives'> & { objectives?: string },
	admin: Actor
): Promise<ReaderSettings> {
	const saved = await db.transaction(async (tx) => {
		const before = (await queries.courseSettingsRow(tx)) ?? defaultSettings();
		const settings: ReaderSettings = {
			title: input.title,
			sequential: input.sequential,
			objectives: input.objectives ?? before.objectives
		};
		await queries.saveCourseSettings(tx, settings);
		const changes = changesOf(before, settings, ['title', 'sequential', 'objectives']);
		if (Object.keys(changes).length)
			await recordAudit(tx, admin, { kind: 'course.updated', subjectType: 'course', changes });
		return settings;
	});
	showProgrammeName(saved.title);
	await readers.catalogueChanged();
	return saved;
}
