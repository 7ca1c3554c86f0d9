/**
 * Any S3-compatible server (MinIO, AWS S3, …) through the `minio` client. The bucket is created on first use
 * when missing; new buckets are private (no policy is ever attached), so objects are reachable only with
 * credentials or a presigned URL.
 */
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { assertObjectPath, UPLOADS_FOLDER } from './types';
import type { ByteRange, ObjectInfo, PutOptions, Storage } from './types';

export interface S3StorageOptions {
	endpoint: URL;
	accessKey: string;
	secretKey: string;
	region: string;
	bucket: string;
}

const isNotFound = (error: unknown) => {
	const code = (error as { code?: string }).code;
	return code === 'NotFound' || code === 'NoSuchKey' || code === 'NoSuchBucket';
};

export class S3Storage implements Storage {
	readonly driver = 's3' as const;
	readonly bucket: string;
	private readonly client: Client;
	private bucketReady: Promise<void> | undefined;

	constructor(private readonly options: S3StorageOptions) {
		this.bucket = options.bucket;
		const { endpoint } = options;
		this.client = new Client({
			endPoint: endpoint.hostname.replace(/^\[|\]$/g, ''),
			port: endpoint.port ? Number(endpoint.port) : endpoint.protocol === 'https:' ? 443 : 80,
			useSSL: endpoint.protocol === 'https:',
			accessKey: options.accessKey,
			secretKey: options.secretKey,
			region: options.region,
			pathStyle: true
		});
	}

	async ping(): Promise<void> {
		// Answers only with the server reachable and the key accepted; a missing bucket is made on the first put.
		await this.client.bucketExists(this.bucket);
	}

	/** Creates the bucket once if it is missing. A failure is not remembered: the next call tries again. */
	ensureBucket(): Promise<void> {
		this.bucketReady ??= (async () => {
			if (!(await this.client.bucketExists(this.bucket))) {
				try {
					await this.client.makeBucket(this.bucket, this.options.region);
				} catch (error) {
					// Another instance made it in the meantime.
					const code = (error as { code?: string }).code;
					if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
				}
			}
		})().catch((error) => {
			this.bucketReady = undefined;
			throw error;
		});
		return this.bucketReady;
	}

	async put(path: string, body: Buffer, { contentType, cacheControl }: PutOptions): Promise<void> {
		assertObjectPath(path);
		await this.ensureBucket();
		await this.client.putObject(this.bucket, path, body, body.length, {
			'Content-Type': contentType,
			'Cache-Control': cacheControl
		});
	}

	/** An object of known size streamed up (a restore's, of any size), never held whole. */
	async putStream(path: string, body: Readable, size: number, { contentType, cacheControl }: PutOptions) {
		assertObjectPath(path);
		await this.ensureBucket();
		await this.client.putObject(this.bucket, path, body, size, {
			'Content-Type': contentType,
			'Cache-Control': cacheControl
		});
	}

	/** A file streamed up (multipart when large): the backups' own bucket receives archives of any size. */
	async putFile(path: string, file: string, { contentType, cacheControl }: PutOptions): Promise<void> {
		assertObjectPath(path);
		await this.ensureBucket();
		await this.client.fPutObject(this.bucket, path, file, {
			'Content-Type': contentType,
			'Cache-Control': cacheControl
		});
	}

	async stat(path: string): Promise<ObjectInfo | null> {
		assertObjectPath(path);
		try {
			const s = await this.client.statObject(this.bucket, path);
			const meta = s.metaData as Record<string, string>;
			return {
				size: s.size,
				etag: `"${s.etag.replace(/"/g, '')}"`,
				lastModified: s.lastModified,
				contentType: meta['content-type'] ?? 'application/octet-stream',
				cacheControl: meta['cache-control'] ?? ''
			};
		} catch (error) {
			if (isNotFound(error)) return null;
			throw error;
		}
	}

	async read(path: string, range?: ByteRange) {
		const info = await this.stat(path);
		if (!info) return null;
		const body = range
			? await this.client.getPartialObject(this.bucket, path, range.start, range.end - range.start + 1)
			: await this.client.getObject(this.bucket, path);
		return { info, body };
	}

	async delete(path: string): Promise<void> {
		assertObjectPath(path);
		await this.client.removeObject(this.bucket, path);
	}

	async *list(): AsyncIterable<string> {
		try {
			for await (const item of this.client.listObjectsV2(this.bucket, '', true) as AsyncIterable<{
				name?: string;
			}>)
				if (item.name && !item.name.startsWith(UPLOADS_FOLDER)) yield item.name;
		} catch (error) {
			if (!isNotFound(error)) throw error;
		}
	}

	/**
	 * Presigned URLs made this second. The image proxy signs a fresh URL for every answer (SEED.md), and a page's
	 * images ask for the same objects in the same second: SigV4's signature is a pure function of the object, the
	 * second it is dated and the lifetime, so within a second the URL made again would be the same string. Dated
	 * at the second's start, a URL is valid its whole lifetime from then (an hour less under a second). `made` holds
	 * the ones signed, for `signedUrlNow`.
	 */
	private presigned = {
		second: -1,
		urls: new Map<string, Promise<string>>(),
		made: new Map<string, string>()
	};

	/** This second's presigned URLs, a new set once the second has changed. */
	private presignedNow() {
		const second = Math.floor(Date.now() / 1000);
		if (second !== this.presigned.second) this.presigned = { second, urls: new Map(), made: new Map() };
		return this.presigned;
	}

	async signedUrl(path: string, expiresInSeconds: number): Promise<string> {
		assertObjectPath(path);
		const presigned = this.presignedNow();
		const key = `${expiresInSeconds} ${path}`;
		let url = presigned.urls.get(key);
		if (!url) {
			url = this.client.presignedGetObject(
				this.bucket,
				path,
				expiresInSeconds,
				{},
				new Date(presigned.second * 1000)
			);
			presigned.urls.set(key, url);
			url.then(
				(made) => presigned.made.set(key, made),
				// A refusal is not remembered: the next request asks again.
				() => presigned.urls.delete(key)
			);
		}
		return url;
	}

	/**
	 * `signedUrl`'s URL when it was already made this second (the same string it would give), else undefined: the
	 * image proxy answers a known photo without waiting a turn for a promise that has settled.
	 */
	signedUrlNow(path: string, expiresInSeconds: number): string | undefined {
		return this.presignedNow().made.get(`${expiresInSeconds} ${path}`);
	}
}
