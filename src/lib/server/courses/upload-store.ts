/**
 * Where tus uploads of course files are kept while they arrive (issue "Learning, part 2", point 1): one store over
 * the application's own storage and database, whatever the driver. Each PATCH's bytes are spooled to a local file
 * (so their size is known and nothing is held in memory), put in the private bucket as a part under
 * `uploads/<id>/`, and added to the upload's row only by an update that finds the offset the PATCH started from.
 * So an upload resumes on any instance that shares the database and the bucket, and two writers never both
 * extend it: the second gives its part up and answers 409.
 *
 * Why not @tus/file-store and @tus/s3-store: the S3 store needs ListParts and AbortMultipartUpload, which the S3
 * server the tests run (s3rver) does not have, so it could not be tested here; and one store over `Storage` is one
 * code path for both drivers, its parts counted out of backups like any work in progress (storage/types.ts).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import type { Db } from '../db';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';
import { UPLOADS_FOLDER, type Storage } from '../storage';
import { isCourseFileKind, SNIFF_BYTES, type CourseFileKind } from './files';
import * as queries from './queries';

/** A refusal the tus server answers as it is: a status and a message in French. */
export interface TusRefusal {
	status_code: number;
	body: string;
}

const ours = new WeakSet<object>();

export function refusal(status_code: number, body: string): TusRefusal {
	const answer = { status_code, body: `${body}\n` };
	ours.add(answer);
	return answer;
}

/** Whether a tus error is one of our refusals (French already), or the protocol's own. */
export const isOurRefusal = (error: unknown) =>
	typeof error === 'object' && error !== null && ours.has(error);

export interface UploadStoreDeps {
	db: Db;
	storage: Storage;
	/** A private folder for the PATCH being received (DATA_DIR/tmp/uploads). */
	spoolDir: string;
	/** Checks an upload's first bytes as soon as they arrive; throws a TusRefusal when they are not of its kind. */
	checkStart: (kind: CourseFileKind, firstBytes: Uint8Array) => void;
}

const PART_STORED = { contentType: 'application/octet-stream', cacheControl: 'private, no-store' };

export class CourseUploadStore extends DataStore {
	constructor(private readonly deps: UploadStoreDeps) {
		super();
		this.extensions = ['creation', 'termination'];
	}

	async create(upload: Upload): Promise<Upload> {
		const kind = upload.metadata?.kind;
		if (!isCourseFileKind(kind) || upload.size === undefined) throw ERRORS.INVALID_METADATA;
		await queries.insertUpload(this.deps.db, {
			id: upload.id,
			kind,
			size: upload.size,
			metadata: upload.metadata ?? {}
		});
		return upload;
	}

	async getUpload(id: string): Promise<Upload> {
		const row = await queries.uploadById(this.deps.db, id);
		if (!row) throw ERRORS.FILE_NOT_FOUND;
		return new Upload({
			id,
			size: row.size,
			offset: row.offset,
			metadata: row.metadata,
			creation_date: row.createdAt.toISOString()
		});
	}

	async write(readable: Readable, id: string, offset: number): Promise<number> {
		const row = await queries.uploadById(this.deps.db, id);
		if (!row) throw ERRORS.FILE_NOT_FOUND;
		await mkdir(this.deps.spoolDir, { recursive: true, mode: PRIVATE_DIR_MODE });
		const spool = path.join(this.deps.spoolDir, `${id}-${randomBytes(6).toString('hex')}`);
		try {
			const first: Buffer[] = [];
			let firstLength = 0;
			const sampler = new Transform({
				transform(chunk: Buffer, _encoding, done) {
					if (firstLength < SNIFF_BYTES) {
						first.push(chunk.subarray(0, SNIFF_BYTES - firstLength));
						firstLength += Math.min(chunk.length, SNIFF_BYTES - firstLength);
					}
					done(null, chunk);
				}
			});
			// A connection cut midway rejects here: the part is dropped whole and the offset stays where it was.
			await pipeline(readable, sampler, createWriteStream(spool, { mode: PRIVATE_FILE_MODE }));
			const size = (await stat(spool)).size;
			if (size === 0) return offset;
			// The kind is checked on the upload's first bytes, before anything of it is kept.
			if (offset === 0 && (firstLength >= SNIFF_BYTES || size === row.size)) {
				try {
					this.deps.checkStart(row.kind, Buffer.concat(first));
				} catch (error) {
					await this.remove(id).catch(() => {});
					throw error;
				}
			}
			const part = { path: `${UPLOADS_FOLDER}${id}/${offset}-${randomBytes(4).toString('hex')}`, size };
			await this.deps.storage.putStream(part.path, createReadStream(spool), size, PART_STORED);
			if (!(await queries.appendPart(this.deps.db, id, offset, part))) {
				// Another PATCH extended it first (or it was removed): this part is nobody's.
				await this.deps.storage.delete(part.path).catch(() => {});
				throw ERRORS.INVALID_OFFSET;
			}
			return offset + size;
		} finally {
			await rm(spool, { force: true });
		}
	}

	/** Removes an upload and its parts; FILE_NOT_FOUND when there is none. */
	async remove(id: string): Promise<void> {
		const row = await queries.deleteUpload(this.deps.db, id);
		if (!row) throw ERRORS.FILE_NOT_FOUND;
		await this.deleteParts(row.parts);
	}

	private async deleteParts(parts: { path: string }[]): Promise<void> {
		for (const part of parts) await this.deps.storage.delete(part.path).catch(() => {});
	}

	/** Uploads untouched for `maxAgeMs` (24 hours by default): removed with their parts. */
	async deleteExpired(maxAgeMs = 24 * 60 * 60 * 1000): Promise<number> {
		const stale = await queries.staleUploads(this.deps.db, new Date(Date.now() - maxAgeMs));
		let removed = 0;
		for (const upload of stale) {
			if (await queries.deleteUpload(this.deps.db, upload.id)) {
				await this.deleteParts(upload.parts);
				removed++;
			}
		}
		return removed;
	}

	/** The whole upload's bytes, part after part, read as they are consumed. */
	read(parts: { path: string }[]): Readable {
		const storage = this.deps.storage;
		return Readable.from(
			(async function* () {
				for (const part of parts) {
					const object = await storage.read(part.path);
					if (!object) throw new Error(`upload part missing: ${part.path}`);
					yield* object.body;
				}
			})(),
			{ objectMode: false }
		);
	}
}
