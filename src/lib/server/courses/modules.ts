/**
 * Course modules written by admins (SEED.md parts 1.7, 2 « Module », 4 « Admin modules »): created, edited, ordered,
 * published and deleted, each change in the audit trail; the files a module names, and the purge of those no module
 * names any more.
 */
import { MODULE_MEDIA_PREFIX, slugify } from '$lib/markdown';
import type { ModuleCreate, ModuleUpdate } from '$lib/schemas/modules';
import { IMAGE_WIDTHS } from '$lib/images';
import { variantPath } from '../imaging';
import type { Storage } from '../storage';
import { courseFilePathOf, type CourseFileKind } from './files';
import type { Db, DbOrTx } from '../db';
import { changesOf, recordAudit, type Actor } from '../audit';
import { isUniqueViolation } from '../db/violations';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import * as queries from './queries';
import type { CourseFile, Module } from './queries';
import type { ReaderCache } from './reader-cache';
import { setBounded } from '../../bounded-map.js';

const SLUG_TAKEN = 'Cette adresse est déjà prise par un autre module.';

async function guardSlug<T>(task: () => Promise<T>): Promise<T> {
	try {
		return await task();
	} catch (error) {
		if (isUniqueViolation(error)) throw new ConflictError(SLUG_TAKEN);
		throw error;
	}
}

/** What the trail keeps of a module: its settings, and of its Markdown only how long it is. */
const AUDITED_FIELDS = [
	'title',
	'slug',
	'summary',
	'published',
	'position',
	'durationMinutes',
	'video',
	'captions',
	'poster',
	'attachments'
] as const;
const audited = (module: Module | null) =>
	module && {
		...module,
		contentLength: module.content.length,
		// Of the quiz, its size and threshold: the trail is read by every admin, the right answers stay in the module.
		quizQuestions: module.quiz?.questions.length ?? 0,
		quizPassPercent: module.quiz?.passPercent ?? null
	};

function moduleChanges(before: Module | null, after: Module | null) {
	return changesOf(audited(before), audited(after), [
		...AUDITED_FIELDS,
		'contentLength',
		'quizQuestions',
		'quizPassPercent'
	]);
}

export async function createModule(
	db: Db,
	readers: ReaderCache,
	input: ModuleCreate,
	admin: Actor
): Promise<Module> {
	const slug = input.slug || slugify(input.title);
	if (!slug) throw new ValidationError({ slug: ['Indiquez l’adresse du module (le titre n’en donne pas).'] });
	const created = await guardSlug(() =>
		db.transaction(async (tx) => {
			await checkCourseFiles(tx, input);
			const module = await queries.insertModule(tx, {
				...input,
				slug,
				position: input.position ?? (await queries.nextPosition(tx))
			});
			await recordAudit(tx, admin, {
				kind: 'module.created',
				subjectType: 'module',
				subjectId: module.id,
				changes: moduleChanges(null, module)
			});
			return module;
		})
	);
	await readers.catalogueChanged();
	return created;
}

export async function getModule(db: DbOrTx, id: string): Promise<Module> {
	const module = await queries.moduleById(db, id);
	if (!module) throw new NotFoundError('Module introuvable.');
	return module;
}

export async function updateModule(
	db: Db,
	readers: ReaderCache,
	storage: Storage,
	id: string,
	changes: ModuleUpdate,
	admin: Actor
): Promise<Module> {
	let released: string[] = [];
	const updated = await guardSlug(() =>
		db.transaction(async (tx) => {
			const before = await getModule(tx, id);
			await checkCourseFiles(tx, changes);
			const updated = await queries.updateModule(tx, id, changes);
			if (!updated) throw new NotFoundError('Module introuvable.');
			await recordAudit(tx, admin, {
				kind: 'module.updated',
				subjectType: 'module',
				subjectId: id,
				changes: moduleChanges(before, updated)
			});
			const kept = new Set(courseValuesOf(updated));
			released = courseValuesOf(before).filter((value) => !kept.has(value));
			return updated;
		})
	);
	await releaseCourseFiles(db, storage, released);
	await readers.catalogueChanged();
	return updated;
}

export async function deleteModule(
	db: Db,
	readers: ReaderCache,
	storage: Storage,
	id: string,
	admin: Actor
): Promise<void> {
	const before = await db.transaction(async (tx) => {
		const before = await getModule(tx, id);
		// Progress rows go with it (ON DELETE CASCADE).
		if (!(await queries.deleteModule(tx, id))) throw new NotFoundError('Module introuvable.');
		await recordAudit(tx, admin, {
			kind: 'module.deleted',
			subjectType: 'module',
			subjectId: id,
			changes: moduleChanges(before, null)
		});
		return before;
	});
	await releaseCourseFiles(db, storage, courseValuesOf(before));
	// Its progress rows went too; a reader's kept ids of it are harmless (only the catalogue's modules count).
	await readers.catalogueChanged();
}

// ——— The module's files ———

type FileFields = Partial<Pick<Module, 'video' | 'captions' | 'poster' | 'attachments'>>;

/** Every course file a module names. */
export const courseValuesOf = (module: FileFields): string[] =>
	[module.video, module.captions, module.poster, ...(module.attachments ?? []).map((a) => a.value)].filter(
		(value): value is string => !!value
	);

const KIND_NOUN: Record<CourseFileKind, string> = {
	video: 'une vidéo',
	captions: 'un fichier de sous-titres',
	poster: 'une affiche',
	attachment: 'une pièce jointe (PDF)'
};

/**
 * Each file a module is given must be one an upload stored (course_files), of the field's kind: a value typed by
 * hand, another module's poster given as a video, a site image or another bucket's object is refused, naming the
 * field.
 */
async function checkCourseFiles(db: DbOrTx, input: FileFields): Promise<void> {
	const wanted: { field: string; value: string; kind: CourseFileKind }[] = [];
	for (const kind of ['video', 'captions', 'poster'] as const) {
		const value = input[kind];
		if (value) wanted.push({ field: kind, value, kind });
	}
	input.attachments?.forEach(({ value }) => wanted.push({ field: 'attachments', value, kind: 'attachment' }));
	if (!wanted.length) return;
	const paths = wanted.map((w) => courseFilePathOf(w.value)).filter((p): p is string => !!p);
	const found = new Map((await queries.courseFilesByPath(db, paths)).map((file) => [file.path, file]));
	const errors: Record<string, string[]> = {};
	for (const { field, value, kind } of wanted) {
		const file = found.get(courseFilePathOf(value) ?? '');
		const problem = !file
			? `Fichier inconnu : envoyez-le depuis l’éditeur du module (${value.slice(0, 80)}).`
			: file.kind !== kind
				? `Ce fichier n’est pas ${KIND_NOUN[kind]} (${value.slice(0, 80)}).`
				: null;
		if (problem) (errors[field] ??= []).push(problem);
	}
	if (Object.keys(errors).length)
		throw new ValidationError(errors, 'Certains fichiers du module sont refusés.');
}

/** Files a module no longer names: deleted with their objects once no module names them. */
async function releaseCourseFiles(db: Db, storage: Storage, values: string[]): Promise<void> {
	for (const value of values) {
		const objectPath = courseFilePathOf(value);
		if (!objectPath || (await queries.isCourseValueUsed(db, value))) continue;
		await queries.deleteCourseFile(db, objectPath);
		await deleteCourseObject(storage, objectPath);
		forgetCourseFile(objectPath);
	}
}

/**
 * Files uploaded and never saved into a module (an editor closed before « Enregistrer »), a day on: deleted with
 * their objects. The daily maintenance runs it, with the abandoned uploads.
 */
export async function purgeUnusedCourseFiles(db: Db, storage: Storage, olderThanMs = 24 * 60 * 60 * 1000) {
	const unused = await queries.unusedCourseFiles(db, new Date(Date.now() - olderThanMs));
	for (const file of unused) {
		await queries.deleteCourseFile(db, file.path);
		await deleteCourseObject(storage, file.path);
		forgetCourseFile(file.path);
	}
	return unused.length;
}

/** A course file's object, and a poster's smaller widths with it (uploads.ts stores them beside it). */
async function deleteCourseObject(storage: Storage, objectPath: string): Promise<void> {
	await storage.delete(objectPath);
	if (objectPath.endsWith('.webp'))
		for (const width of IMAGE_WIDTHS) await storage.delete(variantPath(objectPath, width));
}

/** A course file's row never changes once written: kept per instance, read once (bounded). */
const knownFiles = new Map<string, CourseFile>();
const KNOWN_FILES_MAX = 2_000;
const forgetCourseFile = (objectPath: string) => knownFiles.delete(objectPath);

export async function courseFilesOf(db: DbOrTx, values: string[]): Promise<Map<string, CourseFile>> {
	const paths = values.map(courseFilePathOf).filter((p): p is string => !!p);
	const missing = paths.filter((p) => !knownFiles.has(p));
	for (const file of await queries.courseFilesByPath(db, missing))
		setBounded(knownFiles, file.path, file, KNOWN_FILES_MAX);
	return new Map(paths.flatMap((p) => (knownFiles.has(p) ? [[p, knownFiles.get(p)!] as const] : [])));
}

export const courseFilesTotal = (db: DbOrTx) => queries.courseFilesTotal(db);

/** The members' URL of a course file. */
export const mediaUrl = (value: string) => `${MODULE_MEDIA_PREFIX}${courseFilePathOf(value)}`;

export const listModules = (db: DbOrTx) => queries.allModules(db);

/** Up or down one place, from the keyboard or without JavaScript. */
export async function moveModule(
	db: Db,
	readers: ReaderCache,
	id: string,
	direction: 'up' | 'down',
	admin: Actor
): Promise<void> {
	await db.transaction(async (tx) => {
		const before = (await queries.allModules(tx)).map((m) => m.id);
		const ordered = [...before];
		const from = ordered.indexOf(id);
		if (from === -1) throw new NotFoundError('Module introuvable.');
		const to = direction === 'up' ? from - 1 : from + 1;
		if (to < 0 || to >= ordered.length) return;
		[ordered[from], ordered[to]] = [ordered[to]!, ordered[from]!];
		await queries.setPositions(tx, ordered);
		await recordAudit(tx, admin, {
			kind: 'modules.reordered',
			subjectType: 'module',
			subjectId: id,
			changes: { order: { before, after: ordered } }
		});
	});
	await readers.catalogueChanged();
}

/** Drag and drop: the whole new order, which must name every module once. */
export async function reorderModules(
	db: Db,
	readers: ReaderCache,
	orderedIds: string[],
	admin: Actor
): Promise<void> {
	await db.transaction(async (tx) => {
		const current = (await queries.allModules(tx)).map((m) => m.id);
		const same = current.length === orderedIds.length && new Set(orderedIds).size === current.length;
		if (!same || !orderedIds.every((id) => current.includes(id)))
			throw new ConflictError('La liste des modules a changé entre-temps : rechargez la page.');
		await queries.setPositions(tx, orderedIds);
		await recordAudit(tx, admin, {
			kind: 'modules.reordered',
			subjectType: 'modules',
			changes: { order: { before: current, after: orderedIds } }
		});
	});
	await readers.catalogueChanged();
}
