/**
 * A lesson's media for members (video, captions, poster, worksheets: which file, who may have it, where the
 * video was left) and the editor's view of a module's files.
 */
import type { ImageWidth } from '$lib/images';
import type { CourseFileView } from '$lib/schemas/modules';
import { variantOf, variantPath } from '../imaging';
import { courseFilePathOf } from './files';
import type { DbOrTx } from '../db';
import { NotFoundError } from '../errors';
import * as queries from './queries';
import type { Module } from './queries';
import type { CatalogueModule, ReaderCache } from './reader-cache';
import { courseFilesOf, courseValuesOf, mediaUrl } from './modules';
import { assertOpen, moduleToActOn, readerView } from './progress';

export interface ModuleMedia {
	video: { url: string; contentType: string; durationSeconds: number | null } | null;
	captionsUrl: string | null;
	/**
	 * The poster at the width the player needs on most screens (the lesson's column is 46rem; a phone's 328 px at
	 * 2×), and at its full size for a player wider than that in device pixels: LessonVideo takes it then.
	 */
	poster: { url: string; width: ImageWidth; fullUrl: string } | null;
	attachments: { title: string; url: string; size: number; contentType: string }[];
	/** Where the reader stopped in the video, in seconds; null when they have not started it. */
	resumeAt: number | null;
}

export async function mediaOf(db: DbOrTx, module: CatalogueModule, readerId: string): Promise<ModuleMedia> {
	const files = await courseFilesOf(db, courseValuesOf(module));
	const file = (value: string | null) => (value ? files.get(courseFilePathOf(value) ?? '') : undefined);
	const video = file(module.video);
	const positions = video ? await queries.videoPositionsOf(db, readerId) : [];
	return {
		video: video
			? {
					url: mediaUrl(module.video!),
					contentType: video.contentType,
					durationSeconds: video.durationSeconds
				}
			: null,
		captionsUrl: video && file(module.captions) ? mediaUrl(module.captions!) : null,
		poster: file(module.poster)
			? {
					url: variantPath(mediaUrl(module.poster!), POSTER_WIDTH),
					width: POSTER_WIDTH,
					fullUrl: mediaUrl(module.poster!)
				}
			: null,
		attachments: module.attachments.flatMap((a) => {
			const stored = file(a.value);
			return stored
				? [{ title: a.title, url: mediaUrl(a.value), size: stored.size, contentType: stored.contentType }]
				: [];
		}),
		resumeAt: positions.find((p) => p.moduleId === module.id)?.seconds ?? null
	};
}

/** The width of the poster a lesson names first (uploads.ts stores a poster's smaller widths beside it). */
export const POSTER_WIDTH: ImageWidth = 800;

/**
 * Who may fetch a course file is who may read its module: a published module (the route has checked the member's
 * access), or any module for an admin — and an admin, a file just uploaded (the editor's preview). An attachment
 * downloads under its title. Not found otherwise — a file no module names, a deleted module's, an unpublished
 * one's — so nothing tells a file exists.
 */
export async function courseMedia(
	db: DbOrTx,
	readers: ReaderCache,
	objectPath: string,
	reader: { id: string; isAdmin: boolean }
): Promise<{ objectPath: string; downloadName?: string; whole?: string }> {
	// A poster's smaller width is read as its poster is: the same module, the same rules. `whole` is served when
	// that width is not stored (a poster uploaded before widths, or narrower than the width).
	// A width of a width names no file.
	const variant = objectPath.startsWith('course/') ? variantOf(objectPath) : null;
	if (variant) {
		if (variantOf(variant.objectPath)) throw new NotFoundError('Fichier introuvable.');
		const poster = await courseMedia(db, readers, variant.objectPath, reader);
		if (poster.downloadName !== undefined) throw new NotFoundError('Fichier introuvable.');
		return { objectPath, whole: poster.objectPath };
	}
	const value = `storage:${objectPath}`;
	if (!courseFilePathOf(value)) throw new NotFoundError('Fichier introuvable.');
	const module = await queries.moduleOfCourseValue(db, value);
	if (!module) {
		// Just uploaded, not saved into a module yet: the admin previews it in the editor.
		if (reader.isAdmin && (await queries.courseFilesByPath(db, [objectPath])).length) return { objectPath };
		throw new NotFoundError('Fichier introuvable.');
	}
	if (!module.published && !reader.isAdmin) throw new NotFoundError('Fichier introuvable.');
	// A module the chosen order keeps closed keeps its files closed too (403, saying which module comes first).
	const view = await readerView(db, readers, reader.id);
	const listed = view.catalogue.find((m) => m.id === module.id);
	if (listed) assertOpen(view, listed, reader);
	const attachment = module.attachments.find((a) => a.value === value);
	if (!attachment) return { objectPath };
	const extension = objectPath.slice(objectPath.lastIndexOf('.'));
	const title = attachment.title.toLowerCase().endsWith(extension)
		? attachment.title
		: `${attachment.title}${extension}`;
	return { objectPath, downloadName: title };
}

/** Where a reader is in a module's video: kept to resume there. Seconds past the video's end are its end. */
export async function saveVideoPosition(
	db: DbOrTx,
	readers: ReaderCache,
	reader: { id: string; isAdmin: boolean },
	slug: string,
	seconds: number
): Promise<void> {
	const { module } = await moduleToActOn(db, readers, reader, slug);
	if (!module.video) throw new NotFoundError('Module introuvable.');
	const video = (await courseFilesOf(db, [module.video])).get(courseFilePathOf(module.video) ?? '');
	const end = video?.durationSeconds ?? Number.MAX_SAFE_INTEGER;
	await queries.saveVideoPosition(db, reader.id, module.id, Math.max(0, Math.min(Math.floor(seconds), end)));
}

// ——— The editor's view of a module's files ———

/** What the editor shows of a file (client-safe: the schema module's). */
export type EditorFile = CourseFileView;

export interface EditorFiles {
	video: EditorFile | null;
	captions: EditorFile | null;
	poster: EditorFile | null;
	attachments: (EditorFile & { title: string })[];
}

/** What the module editor shows of each file: its name, size, duration, and the MP4 index warning. */
export async function editorFilesOf(db: DbOrTx, module: Module): Promise<EditorFiles> {
	const files = await courseFilesOf(db, courseValuesOf(module));
	const describe = (value: string | null): EditorFile | null => {
		const file = value ? files.get(courseFilePathOf(value) ?? '') : undefined;
		if (!value || !file) return null;
		return {
			value,
			name: file.originalName,
			contentType: file.contentType,
			size: file.size,
			durationSeconds: file.durationSeconds,
			indexAtEnd: file.indexAtEnd,
			url: mediaUrl(value)
		};
	};
	return {
		video: describe(module.video),
		captions: describe(module.captions),
		poster: describe(module.poster),
		attachments: module.attachments.flatMap((a) => {
			const file = describe(a.value);
			return file ? [{ ...file, title: a.title }] : [];
		})
	};
}
