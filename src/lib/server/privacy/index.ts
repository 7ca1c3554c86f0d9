/**
 * Members' own data (RGPD art. 15 and 20): the file they download from /profil, and that an admin can produce
 * for them from the users list. Bound to the application's database (app.ts); tests call export.ts.
 */
import { company } from '$lib/company';
import { appDeps } from '../app';
import { recordAudit, type Actor } from '../audit';
import { personalDataFileName, personalDataOf } from './export';

/** The JSON file and its name; a NotFoundError when the account no longer exists. */
export async function personalDataFile(userId: string, now = new Date()) {
	const data = await personalDataOf(appDeps().db, userId, now);
	return { name: personalDataFileName(company.brand, now), body: JSON.stringify(data, null, 2) };
}

/**
 * The same file, produced by an admin for a member who asked by mail: recorded in the audit trail (who took whose
 * data) before it is handed over; a failed record gives no file.
 */
export async function personalDataFileFor(userId: string, admin: Actor, now = new Date()) {
	const file = await personalDataFile(userId, now);
	await recordAudit(appDeps().db, admin, {
		kind: 'personal_data.exported',
		subjectType: 'user',
		subjectId: userId
	});
	return file;
}

export { PERSONAL_DATA_FORMAT, type PersonalData } from './export';
