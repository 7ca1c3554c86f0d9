/**
 * The course's own settings (the programme's name, whether the order is imposed, the programme sheet), read through
 * the reader cache. The name is the programme's one name: each read hands it to `$lib/company`, where every page,
 * e-mail and document reads it (`company.training.name`).
 */
import { companyFileProgrammeName, showProgrammeName } from '$lib/company';
import type { CourseSettingsInput } from '$lib/schemas/training';
import type { Db, DbOrTx } from '../db';
import { changesOf, recordAudit, type Actor } from '../audit';
import * as queries from './queries';
import type { ReaderCache, ReaderSettings } from './reader-cache';

/** Until an admin names it, the programme is the one the company file sells. */
const defaultSettings = (): ReaderSettings => ({
	title: companyFileProgrammeName(),
	sequential: false,
	objectives: '',
	audience: '',
	prerequisites: '',
	accessDelay: '',
	price: '',
	accessibility: '',
	trainerName: '',
	trainerQualification: '',
	answerDelayDays: 2,
	coldSurveyDays: 60,
	positioning: null,
	surveyQuestions: null,
	updatedAt: new Date(0)
});

export const courseSettingsOf = (db: DbOrTx, readers: ReaderCache): Promise<ReaderSettings> =>
	readers.settingsOf(async () => {
		const row = await queries.courseSettingsRow(db);
		showProgrammeName(row?.title ?? null);
		return row ?? defaultSettings();
	});

/** The fields of the programme sheet that Qualiopi's indicator 1 requires, as the admin's form names them. */
export const REQUIRED_SHEET_FIELDS = {
	objectives: 'Objectifs',
	audience: 'Public visé',
	prerequisites: 'Prérequis',
	accessDelay: 'Délai d’accès',
	price: 'Tarif',
	accessibility: 'Accessibilité (contact handicap)',
	trainerName: 'Nom du formateur',
	trainerQualification: 'Qualification du formateur'
} as const satisfies Partial<Record<keyof ReaderSettings, string>>;

/**
 * The programme sheet as `/formation` publishes it and `/admin/cours` edits it: the settings but the ones only the
 * admin sees (the order, the survey's delay, the positioning's questions).
 */
export const programmeSheetOf = (settings: ReaderSettings) => ({
	title: settings.title,
	objectives: settings.objectives,
	audience: settings.audience,
	prerequisites: settings.prerequisites,
	accessDelay: settings.accessDelay,
	price: settings.price,
	accessibility: settings.accessibility,
	trainerName: settings.trainerName,
	trainerQualification: settings.trainerQualification,
	answerDelayDays: settings.answerDelayDays
});

/** The required fields left empty, by their labels: `/admin/cours` and the dashboard's « À faire » list them. */
export function missingSheetFields(settings: ReaderSettings): string[] {
	return Object.entries(REQUIRED_SHEET_FIELDS)
		.filter(([field]) => !String(settings[field as keyof typeof REQUIRED_SHEET_FIELDS]).trim())
		.map(([, label]) => label);
}

const AUDITED = [
	'title',
	'sequential',
	'objectives',
	'audience',
	'prerequisites',
	'accessDelay',
	'price',
	'accessibility',
	'trainerName',
	'trainerQualification',
	'answerDelayDays',
	'coldSurveyDays',
	'positioning',
	'surveyQuestions'
] as const satisfies (keyof ReaderSettings)[];

/** Saves the settings; a field left out (an older client's PUT, or one that sets a single field) is kept. */
export async function updateCourseSettings(
	db: Db,
	readers: ReaderCache,
	input: CourseSettingsInput,
	admin: Actor
): Promise<ReaderSettings> {
	const saved = await db.transaction(async (tx) => {
		const before = (await queries.courseSettingsRow(tx)) ?? defaultSettings();
		const { updatedAt: _, ...kept } = before;
		const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
		const settings: queries.CourseSettings = { ...kept, ...given };
		const updatedAt = await queries.saveCourseSettings(tx, settings);
		const changes = changesOf(before, settings, [...AUDITED]);
		if (Object.keys(changes).length)
			await recordAudit(tx, admin, { kind: 'course.updated', subjectType: 'course', changes });
		return { ...settings, updatedAt };
	});
	showProgrammeName(saved.title);
	await readers.catalogueChanged();
	return saved;
}
