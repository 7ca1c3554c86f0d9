import type { Readable } from 'node:stream';

export interface PutOptions {
	contentType: string;
	cacheControl: string;
}

export interface ByteRange {
	start: number;
	/** Inclusive, as in a Range header. */
	end: number;
}

export interface ObjectInfo {
	size: number;
	contentType: string;
	cacheControl: string;
	etag: string;
	lastModified: Date;
}

/** The private bucket, whatever holds it. Paths are validated by `assertObjectPath` before any driver sees them. */
export interface Storage {
	readonly driver: 'fs' | 's3';
	readonly bucket: string;
	put(path: string, body: Buffer, options: PutOptions): Promise<void>;
	/** The same, from a stream of `size` bytes (a restore's objects, of any size): never held whole. */
	putStream(path: string, body: Readable, size: number, options: PutOptions): Promise<void>;
	/** null when the object does not exist. */
	stat(path: string): Promise<ObjectInfo | null>;
	/** A URL that lets its holder GET the object until it expires. */
	signedUrl(path: string, expiresInSeconds: number): Promise<string>;
	/**
	 * The object, or only the bytes `start`–`end` (inclusive) of it: a video's range is asked of the storage as a
	 * range, never read from the start.
	 */
	read(path: string, range?: ByteRange): Promise<{ info: ObjectInfo; body: Readable } | null>;
	delete(path: string): Promise<void>;
	/**
	 * The object's file on this machine, when the driver keeps objects as files (the files driver): a course video is
	 * then sent from it with two reused buffers (server entry), instead of a new buffer per chunk. Absent for S3.
	 */
	localFile?(path: string): string;
	/** Every object's path but uploads in progress (UPLOADS_FOLDER), in no set order, listed as it goes: backups. */
	list(): AsyncIterable<string>;
	/** Resolves when the bucket can be reached and written to (readiness); rejects with the reason otherwise. */
	ping(): Promise<void>;
}

/**
 * Uploads in progress keep their parts under this folder (courses/upload-store.ts). They are nobody's objects yet:
 * `list()` leaves them out, so a backup or a restore never carries half an upload.
 */
export const UPLOADS_FOLDER = 'uploads/';

export class InvalidObjectPathError extends Error {
	constructor(path: string) {
		super(`invalid object path: ${JSON.stringify(path.slice(0, 200))}`);
		this.name = 'InvalidObjectPathError';
	}
}

/**
 * Object paths are ours (`<uuid>.webp`, possibly under a folder), never a client's: letters, digits, dot,
 * dash and underscore in segments joined by single slashes. This refuses `..`, absolute paths, backslashes,
 * percent-encodings (so nothing decodes to `..` later) and NUL before any file system or URL sees them.
 */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

export function assertObjectPath(path: string): string {
	if (typeof path !== 'string' || path.length === 0 || path.length > 512)
		throw new InvalidObjectPathError(String(path));
	const segments = path.split('/');
	if (segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..' || s.includes('..'))) {
		throw new InvalidObjectPathError(path);
	}
	return path;
}

export function isValidObjectPath(path: string): boolean {
	try {
		assertObjectPath(path);
		return true;
	} catch {
		return false;
	}
}
