/**
 * Course modules: the domain's whole public surface, bound to the application's services (app.ts). Routes call
 * these; tests call service.ts with their own database. Who may read is `memberships.accessOf`.
 */
import type postgres from 'postgres';
import type { CourseSettingsInput, ModuleCreate, ModuleUpdate } from '$lib/schemas/modules';
import { appDeps } from '../app';
import type { Actor } from '../audit/service';
import type { Db } from '../db';
import type { Module } from './queries';
import { ReaderCache } from './reader-cache';
import { NotFoundError } from '../errors';
import { mediaAnswer, type MediaRequest } from '../http/media';
import * as service from './service';
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
	if (!cache) readerCaches.set(database, (cache = new ReaderCache()));
	return cache;
}

/** At start-up (hooks.server.ts): hear the other instances' course changes (PostgreSQL; `null` on PGlite). */
export const listenForChanges = (client: postgres.Sql | null) => readers().listen(client);

export const list = () => service.listModules(db());
export const count = () => service.countModules(db());
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
	service.modulePage(db(), readers(), slug, reader);
export const complete = (reader: { id: string; isAdmin: boolean }, slug: string) =>
	service.completeModule(db(), readers(), reader, slug);
export const undo = (userId: string, slug: string) => service.undoModule(db(), readers(), userId, slug);
/** An attempt at a module's quiz, its answers as the form sent them (`q0`, `q1`…): graded, kept. */
export const answerQuiz = (reader: { id: string; isAdmin: boolean }, slug: string, form: FormData) =>
	service.answerQuiz(db(), readers(), reader, slug, form);
/** The programme's name and whether its modules open in order (`GET/PUT /api/admin/course`, `/admin/cours`). */
export const settings = () => service.courseSettingsOf(db(), readers());
export const updateSettings = (settings: CourseSettingsInput, admin: Actor) =>
	service.updateCourseSettings(db(), readers(), settings, admin);

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
	const answer = await mediaAnswer(request, storage(), file.objectPath, {
		downloadName: file.downloadName,
		cacheControl: 'private, max-age=3600'
	});
	if (!answer) throw new NotFoundError('Fichier introuvable.');
	return answer;
}
export const saveVideoPosition = (reader: { id: string; isAdmin: boolean }, slug: string, seconds: number) =>
	service.saveVideoPosition(db(), readers(), reader, slug, seconds);

export type { Progress, ModuleState, ModuleMedia, EditorFiles, EditorFile, QuizPage } from './service';
export { ModuleLockedError } from './service';
export type { StoredCourseFile } from './uploads';
export type { Module } from './queries';
