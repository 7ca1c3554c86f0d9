/**
 * The embedded private bucket: files under DATA_DIR/storage/<bucket>/, each with a `.meta.json` beside it
 * holding Content-Type and Cache-Control. Signed URLs are app URLs (/storage/<bucket>/<path>?exp=&sig=),
 * checked by `verifySignedRequest`; without a valid signature no object is reachable.
 */
import { createHash, randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { access, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';
import { rememberingSigner } from '../signing';
import { assertObjectPath, isValidObjectPath, UPLOADS_FOLDER } from './types';
import type { ByteRange, ObjectInfo, PutOptions, Storage } from './types';

interface Meta {
	contentType: string;
	cacheControl: string;
	etag: string;
}

/** What a signed GET finds: refused, missing, unchanged for the client's ETag, or the object itself. */
export type SignedRead =
	| { outcome: 'forbidden' }
	| { outcome: 'missing' }
	| { outcome: 'not-modified'; info: ObjectInfo }
	| { outcome: 'found'; info: ObjectInfo; body: Readable };

export interface FsStorageOptions {
	root: string;
	bucket: string;
	origin: URL;
	secret: string;
	now?: () => number;
}

export class FsStorage implements Storage {
	readonly driver = 'fs' as const;
	readonly bucket: string;
	private readonly dir: string;
	private readonly now: () => number;
	private readonly signer: ReturnType<typeof rememberingSigner>;

	constructor(private readonly options: FsStorageOptions) {
		this.bucket = options.bucket;
		this.signer = rememberingSigner(options.secret);
		this.dir = path.resolve(options.root, options.bucket);
		this.now = options.now ?? Date.now;
	}

	/** The file of an object, proven to be inside the bucket's folder. */
	private fileOf(objectPath: string): string {
		assertObjectPath(objectPath);
		const file = path.resolve(this.dir, objectPath);
		if (!file.startsWith(this.dir + path.sep)) throw new Error('object path escapes the bucket');
		return file;
	}

	async ping(): Promise<void> {
		await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
		await access(this.dir, constants.W_OK);
	}

	async put(objectPath: string, body: Buffer, options: PutOptions): Promise<void> {
		await this.putStream(objectPath, Readable.from([body]), body.length, options);
	}

	async putStream(
		objectPath: string,
		body: Readable,
		size: number,
		{ contentType, cacheControl }: PutOptions
	): Promise<void> {
		const file = this.fileOf(objectPath);
		await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
		// Write under temporary names and rename, so that a reader never sees half a file or a file without metadata.
		const temp = `${file}.${randomUUID()}.tmp`;
		try {
			const hash = createHash('sha256');
			let written = 0;
			body.on('data', (chunk: Buffer) => {
				hash.update(chunk);
				written += chunk.length;
			});
			await pipeline(body, createWriteStream(temp, { mode: PRIVATE_FILE_MODE }));
			if (written !== size) throw new Error(`${written} bytes received, ${size} announced`);
			const meta: Meta = { contentType, cacheControl, etag: `"${hash.digest('hex').slice(0, 32)}"` };
			await writeFile(`${temp}.meta`, JSON.stringify(meta), { mode: PRIVATE_FILE_MODE });
			await rename(`${temp}.meta`, `${file}.meta.json`);
			await rename(temp, file);
		} catch (error) {
			await rm(temp, { force: true });
			await rm(`${temp}.meta`, { force: true });
			throw error;
		}
	}

	async stat(objectPath: string): Promise<ObjectInfo | null> {
		const file = this.fileOf(objectPath);
		try {
			const [stats, metaText] = await Promise.all([stat(file), readFile(`${file}.meta.json`, 'utf8')]);
			if (!stats.isFile()) return null;
			const meta = JSON.parse(metaText) as Meta;
			return { size: stats.size, lastModified: stats.mtime, ...meta };
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
			throw error;
		}
	}

	async read(objectPath: string, range?: ByteRange) {
		const info = await this.stat(objectPath);
		if (!info) return null;
		return { info, body: createReadStream(this.fileOf(objectPath), range) };
	}

	localFile(objectPath: string): string {
		return this.fileOf(objectPath);
	}

	async delete(objectPath: string): Promise<void> {
		const file = this.fileOf(objectPath);
		await rm(file, { force: true });
		await rm(`${file}.meta.json`, { force: true });
		// An upload's parts have a folder of their own (uploads/<id>/): gone with its last part, or every upload
		// would leave an empty folder forever. S3 has no folders; other folders are shared, and stay.
		if (
			objectPath.startsWith(UPLOADS_FOLDER) &&
			path.dirname(objectPath) !== path.dirname(UPLOADS_FOLDER + 'x')
		)
			await rmdir(path.dirname(file)).catch(() => {});
	}

	async *list(): AsyncIterable<string> {
		let entries;
		try {
			entries = await readdir(this.dir, { recursive: true, withFileTypes: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
			throw error;
		}
		const files = new Set(
			entries
				.filter((entry) => entry.isFile())
				.map((entry) =>
					path.relative(this.dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')
				)
		);
		// An object is a file with its metadata beside it; temporary files of a put in progress are neither.
		for (const file of files)
			if (
				!file.endsWith('.meta.json') &&
				files.has(`${file}.meta.json`) &&
				isValidObjectPath(file) &&
				!file.startsWith(UPLOADS_FOLDER)
			)
				yield file;
	}

	private message(objectPath: string, expires: number) {
		return `GET\n${this.bucket}/${objectPath}\n${expires}`;
	}

	async signedUrl(objectPath: string, expiresInSeconds: number): Promise<string> {
		const { exp, sig } = this.signature(objectPath, expiresInSeconds);
		const url = new URL(`/storage/${this.bucket}/${objectPath}`, this.options.origin);
		url.searchParams.set('exp', exp);
		url.searchParams.set('sig', sig);
		return url.href;
	}

	/** What a signed URL to `objectPath` carries: its expiry (Unix seconds) and its signature. */
	signature(objectPath: string, expiresInSeconds: number): { exp: string; sig: string } {
		assertObjectPath(objectPath);
		const expires = Math.floor(this.now() / 1000) + expiresInSeconds;
		return { exp: String(expires), sig: this.signer.sign(this.message(objectPath, expires)) };
	}

	/**
	 * The object path a signed URL grants, or null when the signature is wrong, expired, or the path invalid.
	 * Constant-time comparison; the path is validated before the signature is even computed.
	 */
	verifySignedRequest(objectPath: string, params: URLSearchParams): string | null {
		return this.verifySignature(objectPath, params.get('exp') ?? '', params.get('sig') ?? '');
	}

	/** `verifySignedRequest` for a signature already taken apart (`signature`'s). */
	verifySignature(objectPath: string, exp: string, sig: string): string | null {
		if (!/^\d{1,12}$/.test(exp) || !sig) return null;
		try {
			assertObjectPath(objectPath);
		} catch {
			return null;
		}
		if (Number(exp) * 1000 < this.now()) return null;
		return this.signer.verify(this.message(objectPath, Number(exp)), sig) ? objectPath : null;
	}

	/**
	 * A GET through a signed URL: the one place that checks the signature, reads the object and honours
	 * If-None-Match — used by the /storage route and by the image proxy alike.
	 */
	async readSigned(
		objectPath: string,
		params: URLSearchParams,
		ifNoneMatch: string | null
	): Promise<SignedRead> {
		const granted = this.verifySignedRequest(objectPath, params);
		if (!granted) return { outcome: 'forbidden' };
		const object = await this.read(granted);
		if (!object) return { outcome: 'missing' };
		if (ifNoneMatch && ifNoneMatch === object.info.etag) {
			object.body.destroy();
			return { outcome: 'not-modified', info: object.info };
		}
		return { outcome: 'found', info: object.info, body: object.body };
	}
}
