/**
 * Course modules: the domain's whole public surface, bound to the application's services (app.ts). Routes call
 * these; tests call service.ts with their own database. Who may read is `memberships.accessOf`.
 */
import type postgres from 'postgres';
import type { ModuleCreate, ModuleUpdate } from '$lib/schemas/modules';
import type { CourseSettingsInput } from '$lib/schemas/training';
import { appDeps } from '../app';
import type { Actor } from '../audit';
import type { Db } from '../db';
import type { Module } from './queries';
import { ReaderCache } from './reader-cache';
import { ForbiddenError, NotFoundError } from '../errors';
import { mediaAnswer, type MediaRequest } from '../storage';
import * as service from './service';
import * as attestations from './attestations';
import * as reminders from './reminders';
import * as signature from './signature';
import * as positioning from './positioning';
import { certificateFor } from './certificate';
import { missingSheetFields, programmeSheetOf } from './settings';
import { inBackground } from '../lifecycle';
import { countRequest } from '../abuse';
import { attestationIssued, sendWith } from '../mail';
import { createUploadServer, type UploadServer } from './uploads';

const db = () => appDeps().db;
const storage = () => appDeps().storage;

/** One tus server per database and storage: the application's, or a test's own (useDepsForTests). */
const uploadServers = new WeakMap<Db, UploadServer & { storage: unknown }>();
function uploads(): UploadServer {
	const { db, storage, config } = appDeps();
	let made = uploadServers.get(db);
	if (!made || made.storage !== storage) {
		made = {
			...createUploadServer({
				db,
				storage,
				dataDir: config.dataDir,
				videoMaxBytes: config.courseVideoMaxBytes,
				imageMaxEdge: config.imageMaxEdge
			}),
			storage
		};
		uploadServers.set(db, made);
	}
	return made!;
}

/** One reader cache per database: the application's, or a test's own (useDepsForTests). */
const readerCaches = new WeakMap<Db, ReaderCache>();
function readers(): ReaderCache {
	const database = db();
	let cache = readerCaches.get(database);
	if (!cache)
		readerCaches.set(
			database,
			(cache = new ReaderCache(
				Date.now,
				() => void service.courseSettingsOf(database, cache!).catch(() => {})
			))
		);
	return cache;
}

/** At start-up (hooks.server.ts): hear the other instances' course changes (PostgreSQL; `null` on PGlite). */
export const listenForChanges = (client: postgres.Sql | null) => readers().listen(client);

export const list = () => service.listModules(db());
export const create = (input: ModuleCreate, admin: Actor) =>
	service.createModule(db(), readers(), input, admin);
export const get = (id: string) => service.getModule(db(), id);
export const update = (id: string, changes: ModuleUpdate, admin: Actor) =>
	service.updateModule(db(), readers(), storage(), id, changes, admin);
export const remove = (id: string, admin: Actor) =>
	service.deleteModule(db(), readers(), storage(), id, admin);
export const move = (id: string, direction: 'up' | 'down', admin: Actor) =>
	service.moveModule(db(), readers(), id, direction, admin);
export const reorder = (ids: string[], admin: Actor) => service.reorderModules(db(), readers(), ids, admin);
export const progressOf = (userId: string) => service.progressOf(db(), readers(), userId);
export const page = (slug: string, reader: { id: string; isAdmin: boolean }) =>
	service.modulePage(db(), readers(), slug, reader, storage());
export const complete = (reader: { id: string; isAdmin: boolean }, slug: string) =>
	service.completeModule(db(), readers(), reader, slug);
export const undo = (userId: string, slug: string) => service.undoModule(db(), readers(), userId, slug);
/** An attempt at a module's quiz, its answers as the form sent them (`q0`, `q1`…): graded, kept. */
/** How long a member waits between two attempts at a quiz (30 s; a test build may shorten it: config.ts). */
export const quizRetrySeconds = () => appDeps().config.waits.quizRetrySeconds;
export const answerQuiz = (reader: { id: string; isAdmin: boolean }, slug: string, form: FormData) =>
	service.answerQuiz(db(), readers(), reader, slug, form, appDeps().config.waits.quizRetrySeconds);
/** The programme's name and whether its modules open in order (`GET/PUT /api/admin/course`, `/admin/cours`). */
export const settings = () => service.courseSettingsOf(db(), readers());
export const updateSettings = (settings: CourseSettingsInput, admin: Actor) =>
	service.updateCourseSettings(db(), readers(), settings, admin);
/** The programme sheet's required fields left empty, by their labels (`/admin/cours`, the dashboard's « À faire »). */
export const missingSheet = async () => missingSheetFields(await settings());
export { missingSheetFields, programmeSheetOf };

// ——— The positioning at entry ———

export const positioningPage = (userId: string) => positioning.positioningPageOf(db(), readers(), userId);
export const answerPositioning = (userId: string, answers: number[][]) =>
	positioning.answerPositioning(db(), readers(), userId, answers);
/** What the learner answered, for the trainer (`/admin/suivi/{id}`) and the proof file. */
export const positioningReport = (userId: string) => positioning.positioningReportOf(db(), userId);

/**
 * A tus request to `/api/admin/uploads` (the route has checked the admin and the origin); a file stored is
 * recorded in the audit trail as the admin's.
 */
export const handleUpload = (request: Request, admin: Actor) => uploads().handle(request, admin);
/** Daily: uploads untouched for a day, and files uploaded but never saved into a module, go. */
export async function purgeAbandonedFiles(): Promise<{ uploads: number; files: number }> {
	const uploadsRemoved = await uploads().store.deleteExpired();
	const files = await service.purgeUnusedCourseFiles(db(), storage());
	return { uploads: uploadsRemoved, files };
}
export const filesTotal = () => service.courseFilesTotal(db());
export const editorFilesOf = (module: Module) => service.editorFilesOf(db(), module);
/**
 * A course file answered to a reader let through (members with access, admins), ranges and all; a NotFoundError
 * when its module may not be read or the file is gone. The SvelteKit route and the server entry both answer it.
 */
export async function mediaAnswerOf(
	request: MediaRequest,
	objectPath: string,
	reader: { id: string; isAdmin: boolean }
) {
	const file = await service.courseMedia(db(), readers(), objectPath, reader);
	const options = { downloadName: file.downloadName, cacheControl: 'private, max-age=3600' };
	const answer =
		(await mediaAnswer(request, storage(), file.objectPath, options)) ??
		(file.whole ? await mediaAnswer(request, storage(), file.whole, options) : null);
	if (!answer) throw new NotFoundError('Fichier introuvable.');
	return answer;
}
export const saveVideoPosition = (reader: { id: string; isAdmin: boolean }, slug: string, seconds: number) =>
	service.saveVideoPosition(db(), readers(), reader, slug, seconds);

// ——— Attestations ———

/** The signature and stamp attestations print: the file an admin sent, through the image pipeline. */
export const SIGNATURE_MAX_BYTES = signature.SIGNATURE_MAX_BYTES;
export const setSignature = (file: signature.SignatureFile, admin: Actor) =>
	signature.setSignature({ db: db(), storage: storage() }, file, admin);
export const removeSignature = (admin: Actor) =>
	signature.removeSignature({ db: db(), storage: storage() }, admin);
export const signatureVersion = () => signature.signatureVersion({ db: db(), storage: storage() });
/** The stored image, for the admin's preview (never a public address). */
export const signatureImage = () => signature.signatureImage({ db: db(), storage: storage() });

/** The public page of a code, per client address: 60 looks in 10 minutes. */
export const ATTESTATION_PAGE_LIMIT = { name: 'attestation-page', max: 60, windowSeconds: 600 };

const attestationDeps = () => ({
	db: db(),
	readers: readers(),
	storage: storage(),
	origin: appDeps().config.origin
});

/** The member's attestation if issued, and whether `/bilan` may offer it. */
export const attestationState = (userId: string) =>
	attestations.attestationStateOf(attestationDeps(), userId);

/**
 * `/bilan/attestation.pdf`: the member's attestation, issued now if it was not (every published module completed),
 * then the stored file. The first issue is told by e-mail, with the download and the public page.
 */
export async function attestationDownload(member: { id: string; name: string; email: string }) {
	const deps = attestationDeps();
	const { attestation, created } = await attestations.issueAttestation(deps, member);
	if (attestation.revokedAt) throw new ForbiddenError('Cette attestation a été révoquée.');
	if (created)
		inBackground(
			sendWith(appDeps().mail, {
				to: { name: member.name, address: member.email },
				template: 'attestation-issued',
				...attestationIssued(member.name.trim().split(/\s+/)[0] || member.name, attestation.programme, {
					download: new URL('/bilan/attestation.pdf', deps.origin).href,
					verify: attestations.verifyUrlOf(deps.origin, attestation.code)
				})
			})
		);
	return { attestation, file: await attestations.attestationFile(deps.storage, attestation) };
}
/**
 * The public page's answer for a code (404 when no attestation bears it), counted per client address first: the
 * codes are unguessable, and the page is limited all the same.
 */
export async function checkAttestation(code: string, address: string) {
	await countRequest(db(), ATTESTATION_PAGE_LIMIT, address);
	return attestations.checkAttestation(db(), code);
}
/** Whether the bytes sent are the very PDF issued under `code` (the form without JavaScript; counted the same). */
export async function isIssuedAttestation(code: string, bytes: Uint8Array, address: string) {
	await countRequest(db(), ATTESTATION_PAGE_LIMIT, address);
	return attestations.isIssuedFile(db(), code, bytes);
}
export const listAttestations = () => attestations.listAttestations(db());
export const revokeAttestation = (id: string, reason: string, admin: Actor) =>
	attestations.revokeAttestation(db(), id, reason, admin);
/** In an account's deletion transaction: its attestation withdrawn; the files to delete after it commits. */
export const forgetAttestationsOf = attestations.forgetAttestationsOf;
/** After the deletion committed: the withdrawn attestations' files go from the bucket. */
export async function deleteAttestationFiles(objectPaths: string[]): Promise<void> {
	for (const objectPath of objectPaths) await storage().delete(objectPath);
}
export { ATTESTATION_CODE } from './attestations';

/**
 * The certificat de réalisation of a learner, made now from their completed modules (a ConflictError before the
 * first): `employer` and `firstSignInAt` are the training domain's to give.
 */
export const certificate = (learner: {
	id: string;
	name: string;
	employer: string | null;
	firstSignInAt: Date | null;
}) => certificateFor({ db: db(), readers: readers(), storage: storage() }, learner);
/** The issued attestation's bytes, for the proof file; null when none was issued (or its file is gone). */
export async function attestationBytesOf(userId: string): Promise<Uint8Array | null> {
	const { issued } = await attestations.attestationStateOf(attestationDeps(), userId);
	if (!issued?.objectPath) return null;
	const object = await storage().read(issued.objectPath);
	if (!object) return null;
	const chunks: Buffer[] = [];
	for await (const chunk of object.body as AsyncIterable<Buffer>) chunks.push(chunk);
	return Buffer.concat(chunks);
}

// ——— Reminders ———

const reminderDeps = () => {
	const { db, mail, config } = appDeps();
	return { db, readers: readers(), mail, origin: config.origin, signingSecret: config.signingSecret };
};
/** The daily job (maintenance.ts): reminders to members idle for a week, if this instance takes the day's turn. */
export const sendReminders = (now?: Date) => reminders.sendReminders(reminderDeps(), now);
/** The one-click List-Unsubscribe (server entry) and its page's button: false for a token that is not one. */
export const unsubscribeFromReminders = (token: string) =>
	reminders.unsubscribe(db(), appDeps().config.signingSecret, token);
/** The switch on /profil. */
export const remindersOf = (userId: string) => reminders.remindersOf(db(), userId);
export const setReminders = (userId: string, on: boolean) => reminders.setReminders(db(), userId, on);

export type { Progress, ModuleState, ModuleMedia, EditorFiles, EditorFile, QuizPage } from './service';
export { ModuleLockedError, PositioningRequiredError } from './service';
export type { StoredCourseFile } from './uploads';
export type { Module } from './queries';
