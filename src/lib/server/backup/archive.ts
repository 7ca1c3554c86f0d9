/**
 * The backup archive: one gzip-compressed tar file, readable with `tar -tzf` by anyone who must look inside.
 *
 *   atelier-backup.json     what made it: format, Atelier's version, schema migration, drivers (first, so that a
 *                           restore refuses an archive it cannot read before it reads anything else)
 *   secret                  the signing secret (payment and password links stay valid after a restore)
 *   tables/<table>.copy     every row of every table, parents before children: COPY's text format from PostgreSQL
 *   tables/<table>.ndjson   (format 2, its columns named in the manifest), one JSON object a row from the embedded
 *                           database (and from either in format 1)
 *   objects/<path>          every object of the bucket, its Content-Type and Cache-Control in the entry's headers
 *   manifest.json           last, once everything is known: counts, columns, and every entry's size and SHA-256
 *
 * Everything is streamed: an archive of thousands of images is written and read with flat memory. What leaves the
 * server is that tar.gz encrypted with age (encryption.ts): `atelier-….tar.gz.age`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type Duplex, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';

const FORMAT = 'atelier-backup';
/** 2: tables in COPY's text format (`.copy`) beside JSON lines; 1 read as ever. */
const FORMAT_VERSION = 2;

/** How a table's rows are written: COPY's text format (from PostgreSQL), or one JSON object a line. */
export type TableFormat = 'copy' | 'ndjson';

export const HEADER_ENTRY = 'atelier-backup.json';
const SECRET_ENTRY = 'secret';
const MANIFEST_ENTRY = 'manifest.json';
const TABLE_PREFIX = 'tables/';
const OBJECT_PREFIX = 'objects/';

/**
 * Where the object's metadata rides in the tar entry's PAX headers: as extended attributes (`user.atelier.*`), the
 * vendor keywords that GNU tar knows (it restores them with --xattrs and is silent without), where archives before
 * 0.3.0 used keywords of their own, which GNU tar warned about once per object. Both are read.
 */
const PAX_CONTENT_TYPE = 'SCHILY.xattr.user.atelier.content-type';
const PAX_CACHE_CONTROL = 'SCHILY.xattr.user.atelier.cache-control';
const OLD_PAX_CONTENT_TYPE = 'ATELIER.content-type';
const OLD_PAX_CACHE_CONTROL = 'ATELIER.cache-control';

/** Entries but the bucket's objects (tables, the header, the manifest): nothing in a sound archive comes near this; a bigger one is refused unread. */
export const MAX_ENTRY_BYTES = 256 * 1024 * 1024;
/**
 * The bucket's objects, a course's videos among them (up to COURSE_VIDEO_MAX_MB): streamed in and out, never held,
 * up to what a tar header's size field holds (11 octal digits: 8 GiB less one byte).
 */
export const MAX_OBJECT_ENTRY_BYTES = 0o77777777777;

export interface BackupHeader {
	format: typeof FORMAT;
	formatVersion: number;
	/** Atelier's version (package.json) that wrote it. */
	appVersion: string;
	/** The commit that version was built from ("unknown" without a build's release.json); absent before 0.2.0. */
	appCommit?: string;
	createdAt: string;
	source: { database: 'pglite' | 'postgres'; storage: 'fs' | 's3'; bucket: string };
	/** The last schema migration applied to the database it was made from. */
	migration: { count: number; tag: string | null; when: number | null };
}

export interface ManifestEntry {
	name: string;
	size: number;
	sha256: string;
}

export interface Manifest {
	tables: Record<string, number>;
	/** The columns of each `.copy` table, in the order of its fields (format 2). */
	columns?: Record<string, string[]>;
	objects: { count: number; bytes: number };
	entries: ManifestEntry[];
}

/** The rows of every table, together: what a manifest, a backup or a restore counted, as the operator reads it. */
export const rowsIn = ({ tables }: { tables: Record<string, number> }) =>
	Object.values(tables).reduce((sum, rows) => sum + rows, 0);

export interface ObjectMeta {
	contentType: string;
	cacheControl: string;
}

/** Writes the archive to `output` (a file, or an HTTP response), recording each entry's checksum on the way. */
export class ArchiveWriter {
	private readonly pack = tar.pack();
	private readonly done: Promise<void>;
	readonly entries: ManifestEntry[] = [];

	/** `seal`, when given, encrypts the compressed archive on its way to `output` (encryption.ts). */
	constructor(output: Writable, seal?: Duplex) {
		// Images are already compressed, and the tables' JSON compresses nearly as well at the lowest level as at 4
		// (35 against 34 MB at the reference size) in two thirds of the time; larger chunks, fewer callbacks.
		const gzip = createGzip({ level: 1, chunkSize: 256 * 1024 });
		this.done = seal ? pipeline(this.pack, gzip, seal, output) : pipeline(this.pack, gzip, output);
		// Without a listener, an output that fails before the first await would be an unhandled rejection.
		this.done.catch(() => {});
	}

	private async addBuffer(name: string, body: Buffer, pax?: Record<string, string>): Promise<void> {
		await this.add(name, body.length, pax, async (entry) => {
			entry.end(body);
		});
		this.record(name, body.length, createHash('sha256').update(body).digest('hex'));
	}

	/** What made the archive: written first, so that a restore refuses what it cannot read before anything else. */
	addHeader(fields: Omit<BackupHeader, 'format' | 'formatVersion'>): Promise<void> {
		const header: BackupHeader = { format: FORMAT, formatVersion: FORMAT_VERSION, ...fields };
		return this.addBuffer(HEADER_ENTRY, Buffer.from(JSON.stringify(header, null, '\t')));
	}

	addSecret(signingSecret: string): Promise<void> {
		return this.addBuffer(SECRET_ENTRY, Buffer.from(signingSecret));
	}

	/** A table's rows, spooled to a file of known size: streamed, never held whole. */
	addTable(table: string, file: string, size: number, format: TableFormat): Promise<void> {
		return this.addStream(`${TABLE_PREFIX}${table}.${format}`, createReadStream(file), size);
	}

	/** An object of the bucket, streamed from the storage as it is read (one of 250 MB never sits in memory). */
	addObject(path: string, body: Readable, size: number, meta: ObjectMeta): Promise<void> {
		return this.addStream(`${OBJECT_PREFIX}${path}`, body, size, {
			[PAX_CONTENT_TYPE]: meta.contentType,
			[PAX_CACHE_CONTROL]: meta.cacheControl
		});
	}

	private async addStream(
		name: string,
		source: Readable,
		size: number,
		pax?: Record<string, string>
	): Promise<void> {
		const hash = createHash('sha256');
		await this.add(name, size, pax, async (entry) => {
			source.on('data', (chunk) => hash.update(chunk));
			await pipeline(source, entry);
		});
		this.record(name, size, hash.digest('hex'));
	}

	private record(name: string, size: number, sha256: string) {
		this.entries.push({ name, size, sha256 });
	}

	private async add(
		name: string,
		size: number,
		pax: Record<string, string> | undefined,
		fill: (entry: NodeJS.WritableStream & Writable) => Promise<void>
	): Promise<void> {
		const callback = new Promise<void>((resolve, reject) => {
			const entry = this.pack.entry(
				{ name, size, mode: 0o600, mtime: new Date(), pax },
				(error) => (error ? reject(error) : resolve())
				// tar-stream's entry is a Node Writable; its types declare a narrower stream.
			) as unknown as NodeJS.WritableStream & Writable;
			fill(entry).catch(reject);
		});
		await Promise.race([callback, this.done]);
	}

	/** Ends the archive with its manifest and waits until every byte reached the output. */
	async finish(manifest: Omit<Manifest, 'entries'>): Promise<void> {
		const body = Buffer.from(JSON.stringify({ ...manifest, entries: this.entries } satisfies Manifest));
		await this.add(MANIFEST_ENTRY, body.length, undefined, async (entry) => {
			entry.end(body);
		});
		this.pack.finalize();
		await this.done;
	}

	/** Stops writing: the output is destroyed, so a reader sees a truncated archive (refused by restore). */
	abort(error: Error): void {
		this.pack.destroy(error);
	}
}

export interface ArchiveEntry {
	name: string;
	size: number;
	meta: ObjectMeta | null;
	body: Readable;
}

/** A damaged, truncated or foreign archive: restore says so and changes nothing. */
export class InvalidArchiveError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'InvalidArchiveError';
	}
}

/**
 * Reads the archive's entries in order. `onEntry` must consume or drain each body; the SHA-256 of what it read is
 * returned alongside. Gzip and tar errors (a truncated or corrupt file) become InvalidArchiveError.
 */
export async function readArchive(
	input: Readable,
	onEntry: (entry: ArchiveEntry) => Promise<void>
): Promise<ManifestEntry[]> {
	const extract = tar.extract();
	const seen: ManifestEntry[] = [];
	// Large chunks: a 300 MB table in 16 KB pieces is 19,000 callbacks and their garbage.
	const reading = pipeline(input, createGunzip({ chunkSize: 256 * 1024 }), extract);
	reading.catch(() => {});
	try {
		for await (const entry of extract) {
			const { name, size = 0, type } = entry.header;
			const pax = (entry.header.pax ?? {}) as Record<string, string>;
			if (type !== 'file') throw new InvalidArchiveError(`unexpected ${type} entry ${name} in the archive`);
			const limit = entryKind(name).kind === 'object' ? MAX_OBJECT_ENTRY_BYTES : MAX_ENTRY_BYTES;
			if (size > limit) throw new InvalidArchiveError(`entry ${name} is too large (${size} bytes)`);
			const hash = createHash('sha256');
			let read = 0;
			const counted = new Transform({
				transform(chunk: Buffer, _encoding, callback) {
					hash.update(chunk);
					read += chunk.length;
					callback(null, chunk);
				}
			});
			const flowing = pipeline(entry, counted);
			flowing.catch(() => {});
			const meta =
				PAX_CONTENT_TYPE in pax
					? { contentType: pax[PAX_CONTENT_TYPE]!, cacheControl: pax[PAX_CACHE_CONTROL] ?? '' }
					: OLD_PAX_CONTENT_TYPE in pax
						? { contentType: pax[OLD_PAX_CONTENT_TYPE]!, cacheControl: pax[OLD_PAX_CACHE_CONTROL] ?? '' }
						: null;
			await onEntry({ name, size, meta, body: counted });
			counted.resume(); // whatever onEntry left unread
			await flowing;
			if (read !== size) throw new InvalidArchiveError(`entry ${name} is truncated`);
			seen.push({ name, size, sha256: hash.digest('hex') });
		}
		await reading;
	} catch (error) {
		extract.destroy();
		if (error instanceof InvalidArchiveError || error instanceof TargetError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw error;
		throw new InvalidArchiveError(
			`the archive cannot be read (${(error as Error).message}): it is truncated, damaged or not an Atelier backup`
		);
	}
	return seen;
}

/**
 * What the restore's target refused (a table the database would not take, an object the bucket would not store):
 * said as it is, never as a damaged archive.
 */
export class TargetError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'TargetError';
	}
}

/** Reads a whole (small) entry: the header, the secret, the manifest. */
export async function readSmall(body: Readable, limit = 64 * 1024 * 1024): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		size += (chunk as Buffer).length;
		if (size > limit) throw new InvalidArchiveError('an entry is larger than the archive says it can be');
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** What an entry's name says it is: the one place names are decoded (restore and verification read through it). */
export type EntryKind =
	| { kind: 'header' }
	| { kind: 'secret' }
	| { kind: 'manifest' }
	| { kind: 'table'; table: string; format: TableFormat }
	| { kind: 'object'; path: string }
	| { kind: 'unknown' };

export function entryKind(name: string): EntryKind {
	if (name === HEADER_ENTRY) return { kind: 'header' };
	if (name === SECRET_ENTRY) return { kind: 'secret' };
	if (name === MANIFEST_ENTRY) return { kind: 'manifest' };
	const table = /^tables\/(.+)\.(copy|ndjson)$/.exec(name);
	if (table) return { kind: 'table', table: table[1]!, format: table[2] as TableFormat };
	if (name.startsWith(OBJECT_PREFIX)) return { kind: 'object', path: name.slice(OBJECT_PREFIX.length) };
	return { kind: 'unknown' };
}

/** The header entry, refused when it is not ours or a newer format than this version reads. */
export function parseHeader(body: Buffer): BackupHeader {
	let header: BackupHeader;
	try {
		header = JSON.parse(body.toString('utf8')) as BackupHeader;
	} catch {
		throw new InvalidArchiveError(`${HEADER_ENTRY} is not JSON`);
	}
	if (header?.format !== FORMAT) throw new InvalidArchiveError('not an Atelier backup');
	if (!Number.isInteger(header.formatVersion) || header.formatVersion > FORMAT_VERSION)
		throw new InvalidArchiveError(
			`this backup was written by a newer Atelier (${header.appVersion}, format ${header.formatVersion}): ` +
				'restore it with that version or a later one'
		);
	return header;
}

export function parseManifest(body: Buffer): Manifest {
	try {
		const manifest = JSON.parse(body.toString('utf8')) as Manifest;
		if (Array.isArray(manifest.entries) && manifest.tables && manifest.objects) return manifest;
	} catch {
		// reported below
	}
	throw new InvalidArchiveError(`${MANIFEST_ENTRY} is not a manifest`);
}
