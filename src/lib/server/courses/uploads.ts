/**
 * Course files arrive through tus 1.0 at `/api/admin/uploads` (issue "Learning, part 2", point 1): `@tus/server`
 * speaks the protocol (creation, HEAD, PATCH, termination, locks), our store keeps the bytes (upload-store.ts).
 * An upload says what it is for (`kind` in Upload-Metadata) and its length; both are checked before anything is
 * kept, its first bytes as soon as they arrive, and the whole file once complete: read through once to store it as
 * `course/<uuid>.<ext>`, its MP4 boxes counted (a file cut short is refused) and its duration read from its own
 * index (video-index.ts). The last PATCH answers `{ value, contentType, size, durationSeconds }`. Whatever is refused
 * leaves nothing behind: the upload's parts and the object are removed.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Server, MemoryLocker } from '@tus/server';
import type { Db } from '../db';
import { recordAudit, type Actor } from '../audit';
import { log } from '../log';
import { optimiseImage, variantPath } from '../imaging';
import { toStorageValue, type Storage } from '../storage';
import {
	ACCEPTED_LABEL,
	COURSE_FILE_KINDS,
	COURSE_FOLDER,
	formatMegabytes,
	isCourseFileKind,
	KIND_LABEL,
	maxBytesOf,
	sniff,
	SNIFF_BYTES,
	type CourseFileKind
} from './files';
import * as queries from './queries';
import { CourseUploadStore, isOurRefusal, refusal } from './upload-store';
import { Mp4BoxScanner, WebmHeadReader, type VideoIndexReader } from './video-index';

export const UPLOADS_PATH = '/api/admin/uploads';

export interface UploadDeps {
	db: Db;
	storage: Storage;
	dataDir: string;
	videoMaxBytes: number;
	imageMaxEdge: number;
}

/** What the last PATCH answers, and what the editor puts in the module. */
export interface StoredCourseFile {
	value: string;
	kind: CourseFileKind;
	contentType: string;
	size: number;
	durationSeconds?: number;
	/** An MP4 whose index is at its end: it starts slowly on phones (the editor says how to fix it). */
	indexAtEnd?: boolean;
	name: string;
}

const notOfKind = (kind: CourseFileKind) =>
	refusal(415, `Ce fichier n’est pas ${ACCEPTED_LABEL[kind]} : son contenu ne correspond pas.`);

function checkStart(kind: CourseFileKind, firstBytes: Uint8Array): void {
	if (!sniff(kind, firstBytes)) throw notOfKind(kind);
}

/** The file's name as the admin had it, for display only: one line, no path, 200 characters at most. */
const displayName = (metadata: Record<string, string | null> | undefined) =>
	path
		.basename(String(metadata?.filename ?? ''))
		// eslint-disable-next-line no-control-regex
		.replace(/[\u0000-\u001f\u007f]/g, '')
		.slice(0, 200);

export function createUploadServer(deps: UploadDeps) {
	/** Who sent each request being handled: the audit row of a stored file names them. */
	// Keyed by the request object itself, whichever type tus hands back (the same object it was given).
	const senders = new WeakMap<object, Actor>();
	const store = new CourseUploadStore({
		db: deps.db,
		storage: deps.storage,
		spoolDir: path.join(deps.dataDir, 'tmp', 'uploads'),
		checkStart
	});
	const server = new Server({
		path: UPLOADS_PATH,
		datastore: store,
		// One instance's PATCHes on an upload wait for each other; across instances the store's conditional update
		// keeps a second writer from extending it.
		locker: new MemoryLocker(),
		relativeLocation: true,
		// Same-origin only: no other site is given CORS headers.
		allowedOrigins: [],
		namingFunction: () => randomBytes(16).toString('hex'),
		// Said on OPTIONS (Tus-Max-Size): the largest file of any kind; each kind's own limit is checked on creation.
		maxSize: Math.max(...COURSE_FILE_KINDS.map((kind) => maxBytesOf(kind, deps.videoMaxBytes))),
		// Upload ids are ours (32 hex digits): anything else is no upload.
		getFileIdFromRequest: (_req, last) => (last && /^[0-9a-f]{32}$/.test(last) ? last : undefined),
		async onUploadCreate(_req, upload) {
			const kind = upload.metadata?.kind;
			if (!isCourseFileKind(kind))
				throw refusal(
					400,
					'Indiquez ce que le fichier est pour le module (vidéo, sous-titres, affiche ou pièce jointe).'
				);
			if (upload.size === undefined)
				throw refusal(400, 'La taille du fichier doit être annoncée dès le début de l’envoi.');
			if (upload.size === 0) throw refusal(400, 'Le fichier est vide.');
			const max = maxBytesOf(kind, deps.videoMaxBytes);
			if (upload.size > max)
				throw refusal(
					413,
					`${KIND_LABEL[kind]} dépasse ${formatMegabytes(max)} (${formatMegabytes(upload.size)}).`
				);
			return { metadata: { kind, filename: displayName(upload.metadata) } };
		},
		async onUploadFinish(req, upload) {
			const stored = await finishUpload(deps, store, upload.id, senders.get(req) ?? null);
			return {
				status_code: 200,
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(stored)
			};
		},
		onResponseError(_req, error) {
			if (isOurRefusal(error)) return undefined;
			if ('status_code' in error) return protocolRefusal(error.status_code);
			log.error('course upload failed', { error });
			return { status_code: 500, body: 'L’envoi a échoué côté serveur. Réessayez.\n' };
		}
	});
	return {
		server,
		store,
		handle(request: Request, admin: Actor): Promise<Response> {
			const refused = protocolChecks(request);
			if (refused) return Promise.resolve(refused);
			senders.set(request, admin);
			return server.handleWeb(request);
		}
	};
}

export type UploadServer = ReturnType<typeof createUploadServer>;

const TUS_VERSION = '1.0.0';

/**
 * What tus 1.0 asks of every request before the server looks at it, answered as the protocol says and in French:
 * a request without `Tus-Resumable: 1.0.0` (but OPTIONS, which asks what the server speaks) is a 412 that names
 * the versions this server speaks (`Tus-Version`); a PATCH whose body is not `application/offset+octet-stream` is a
 * 415. @tus/server answered another version with a 400 in English, and a wrong content type with a 400 too.
 */
function protocolChecks(request: Request): Response | null {
	const answer = (status: number, text: string, extra: Record<string, string> = {}) => {
		const body = `${text}\n`;
		return new Response(body, {
			status,
			headers: {
				'tus-resumable': TUS_VERSION,
				'content-type': 'text/plain; charset=utf-8',
				'content-length': String(Buffer.byteLength(body)),
				...extra
			}
		});
	};
	if (request.method === 'OPTIONS') return null;
	const version = request.headers.get('tus-resumable');
	if (version !== TUS_VERSION)
		return answer(
			412,
			version === null
				? 'Protocole tus 1.0 requis : l’en-tête Tus-Resumable manque.'
				: `Version du protocole tus non prise en charge (${version.slice(0, 20)}) : ce serveur parle tus ${TUS_VERSION}.`,
			{ 'tus-version': TUS_VERSION }
		);
	if (request.method === 'PATCH') {
		const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
		if (type !== 'application/offset+octet-stream')
			return answer(415, 'Type de contenu inattendu : un envoi tus est en application/offset+octet-stream.');
	}
	return null;
}

/**
 * The protocol's own refusals (@tus/server's, in English), said in French with the same status — but the deferred
 * length, which is a client's choice this server does not offer (400, not 501).
 */
function protocolRefusal(status: number): { status_code: number; body: string } {
	const text: Record<number, string> = {
		400: 'Requête d’envoi invalide (en-têtes tus).',
		403: 'Cette opération sur l’envoi n’est pas permise.',
		404: 'Envoi introuvable : il a été terminé, abandonné ou supprimé.',
		409: 'Position d’envoi inattendue : le client doit demander où reprendre (HEAD).',
		410: 'Cet envoi a expiré.',
		412: 'Protocole tus 1.0 requis (en-tête Tus-Resumable).',
		413: 'Envoi trop volumineux.',
		415: 'Type de contenu inattendu : application/offset+octet-stream.',
		460: 'Somme de contrôle refusée.',
		501: 'La taille du fichier doit être annoncée dès le début de l’envoi.'
	};
	if (status === 501) return { status_code: 400, body: `${text[501]}\n` };
	return { status_code: status, body: `${text[status] ?? 'Requête d’envoi refusée.'}\n` };
}

/**
 * A complete upload becomes a course file: checked, stored under its own name, recorded. The upload is removed
 * whatever happens; a refused file leaves no object either.
 */
async function finishUpload(
	deps: UploadDeps,
	store: CourseUploadStore,
	id: string,
	admin: Actor | null
): Promise<StoredCourseFile> {
	const upload = await queries.uploadById(deps.db, id);
	if (!upload) throw refusal(404, 'Envoi introuvable.');
	const name = displayName(upload.metadata);
	let objectPath: string | null = null;
	try {
		const file =
			upload.kind === 'poster'
				? await storePoster(deps, store.read(upload.parts))
				: await storeFile(deps, upload.kind, store.read(upload.parts), upload.size);
		objectPath = file.path;
		await deps.db.transaction(async (tx) => {
			await queries.insertCourseFile(tx, {
				path: file.path,
				kind: upload.kind,
				contentType: file.contentType,
				size: file.size,
				durationSeconds: file.durationSeconds ?? null,
				indexAtEnd: file.indexAtEnd ?? false,
				originalName: name
			});
			if (admin)
				await recordAudit(tx, admin, {
					kind: 'course_file.uploaded',
					subjectType: 'course_file',
					subjectId: file.path,
					changes: { kind: { before: null, after: upload.kind }, size: { before: null, after: file.size } }
				});
		});
		return {
			value: toStorageValue(file.path),
			kind: upload.kind,
			contentType: file.contentType,
			size: file.size,
			...(file.durationSeconds !== undefined && { durationSeconds: file.durationSeconds }),
			...(upload.kind === 'video' && { indexAtEnd: file.indexAtEnd ?? false }),
			name
		};
	} catch (error) {
		if (objectPath) await deps.storage.delete(objectPath).catch(() => {});
		throw error;
	} finally {
		await store.remove(id).catch(() => {});
	}
}

interface WrittenFile {
	path: string;
	contentType: string;
	size: number;
	durationSeconds?: number;
	indexAtEnd?: boolean;
}

/** A poster goes through the image pipeline (rotated, stripped, WebP ≤ 1 MB), like every image of the site. */
async function storePoster(deps: UploadDeps, body: Readable): Promise<WrittenFile> {
	const chunks: Buffer[] = [];
	for await (const chunk of body) chunks.push(chunk as Buffer);
	const input = Buffer.concat(chunks);
	const type = sniff('poster', input.subarray(0, SNIFF_BYTES));
	if (!type?.imageType) throw notOfKind('poster');
	let optimised: Awaited<ReturnType<typeof optimiseImage>>;
	try {
		optimised = await optimiseImage(input, type.imageType, { maxEdge: Math.min(deps.imageMaxEdge, 1920) });
	} catch (error) {
		throw refusal(422, (error as Error).message || 'L’image n’a pas pu être lue.');
	}
	const objectPath = `${COURSE_FOLDER}${randomUUID()}.webp`;
	const stored = { contentType: 'image/webp', cacheControl: 'private, max-age=0' };
	// Its smaller widths beside it (`-w480`, `-w800`…), before the answer: the player asks for the one its size
	// needs (courses/media.ts), and a poster is one image, not a page's dozen.
	const variants = await optimised.variants();
	const written = [objectPath, ...variants.map((v) => variantPath(objectPath, v.width))];
	try {
		await deps.storage.put(objectPath, optimised.webp, stored);
		for (const [i, variant] of variants.entries())
			await deps.storage.put(written[i + 1]!, variant.webp, stored);
	} catch (error) {
		// Nothing half-written: a poster is stored with all its widths, or not at all.
		await Promise.all(written.map((p) => deps.storage.delete(p).catch(() => {})));
		throw error;
	}
	return { path: objectPath, contentType: 'image/webp', size: optimised.webp.length };
}

/**
 * A video, captions or an attachment: its type from its first bytes, then stored as it is read once, with (for a
 * video) its index read from the same bytes.
 */
async function storeFile(
	deps: UploadDeps,
	kind: CourseFileKind,
	body: Readable,
	size: number
): Promise<WrittenFile> {
	const inspected = new FileInspection(kind);
	const objectPath = `${COURSE_FOLDER}${randomUUID()}.${await inspected.typeOf(body)}`;
	const type = inspected.type!;
	try {
		await deps.storage.putStream(objectPath, inspected.stream, size, {
			contentType: type.contentType,
			cacheControl: 'private, max-age=0'
		});
		const { durationSeconds, indexAtEnd } = inspected.result();
		return { path: objectPath, contentType: type.contentType, size, durationSeconds, indexAtEnd };
	} catch (error) {
		await deps.storage.delete(objectPath).catch(() => {});
		throw error;
	}
}

const TRUNCATED = refusal(422, 'La vidéo est incomplète ou illisible : envoyez le fichier entier.');
const NO_DURATION = refusal(
	422,
	'La durée de la vidéo est introuvable dans le fichier : exportez-la de nouveau (MP4 H.264 ou WebM) et renvoyez-la.'
);

/** The longest lesson video a course takes: past it, the length a file claims is not believed. */
const MAX_VIDEO_SECONDS = 24 * 60 * 60;

/**
 * The bytes of a file on their way to storage: its type from the first ones, and a video's index read as they go
 * by (video-index.ts: the duration from the file's own index, at a bounded cost whatever its boxes).
 */
class FileInspection {
	type: ReturnType<typeof sniff> = null;
	readonly stream: Transform;
	private index: VideoIndexReader | null = null;

	constructor(private readonly kind: CourseFileKind) {
		this.stream = new Transform({
			transform: (chunk: Buffer, _encoding, done) => {
				this.index?.push(chunk);
				done(null, chunk);
			}
		});
	}

	/** Reads the first bytes of `body` (put back in front), and answers the object's extension. */
	async typeOf(body: Readable): Promise<string> {
		const head: Buffer[] = [];
		let length = 0;
		const iterator = body[Symbol.asyncIterator]();
		while (length < SNIFF_BYTES) {
			const next = await iterator.next();
			if (next.done) break;
			head.push(next.value as Buffer);
			length += (next.value as Buffer).length;
		}
		this.type = sniff(this.kind, Buffer.concat(head).subarray(0, SNIFF_BYTES));
		if (!this.type) {
			await iterator.return?.();
			throw notOfKind(this.kind);
		}
		if (this.type.extension === 'mp4') this.index = new Mp4BoxScanner();
		else if (this.type.extension === 'webm') this.index = new WebmHeadReader();
		const rest = (async function* () {
			yield* head;
			for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
		})();
		// The whole body flows through the inspection into storage; an error on either side ends both, and
		// storage's putStream sees it and rejects.
		pipeline(Readable.from(rest, { objectMode: false }), this.stream).catch(() => {});
		return this.type.extension;
	}

	/** A video's duration in whole seconds and where its index is; refused when the file says no believable length. */
	result(): { durationSeconds?: number; indexAtEnd?: boolean } {
		if (this.kind !== 'video' || !this.index) return {};
		const { complete, durationSeconds: seconds, indexAtEnd } = this.index.result();
		if (!complete) throw TRUNCATED;
		if (seconds === undefined || seconds === 0) throw NO_DURATION;
		if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_VIDEO_SECONDS)
			throw refusal(
				422,
				`La vidéo annonce une durée invraisemblable (${formatDuration(seconds)}) : une leçon dure au plus 24 heures. Exportez-la de nouveau et renvoyez-la.`
			);
		return { durationSeconds: Math.max(1, Math.round(seconds)), indexAtEnd };
	}
}

/** « 1 193 046 h », « 12 s »: a claimed length as a person reads it. */
function formatDuration(seconds: number): string {
	if (!Number.isFinite(seconds)) return 'infinie';
	if (seconds < 3600) return `${Math.round(seconds).toLocaleString('fr-FR')} s`;
	return `${Math.round(seconds / 3600).toLocaleString('fr-FR')} h`;
}
