/** The private bucket `private-gallery`: one interface, two drivers (CONTRACT §2, STORAGE_DRIVER). */
import path from 'node:path';
import { config, type Config } from '../config';
import { lazy } from '../lazy';
import { FsStorage } from './fs';
import { S3Storage } from './s3';
import type { Storage } from './types';

export function createStorage(c: Pick<Config, 'storage' | 'dataDir' | 'origin' | 'signingSecret'>): Storage {
	if (c.storage.driver === 's3') return new S3Storage(c.storage);
	return new FsStorage({
		root: path.join(c.dataDir, 'storage'),
		bucket: c.storage.bucket,
		origin: c.origin,
		secret: c.signingSecret
	});
}

export const storage: Storage = lazy(() => createStorage(config));

export { FsStorage, S3Storage };
export type { SignedRead } from './fs';
export {
	assertObjectPath,
	isValidObjectPath,
	InvalidObjectPathError,
	UPLOADS_FOLDER,
	type ByteRange,
	type ObjectInfo,
	type Storage
} from './types';

/** `storage:<path>` ↔ path. */
export const STORAGE_PREFIX = 'storage:';
export const toStorageValue = (objectPath: string) => `${STORAGE_PREFIX}${objectPath}`;
export const storagePathOf = (value: string): string | null =>
	value.startsWith(STORAGE_PREFIX) ? value.slice(STORAGE_PREFIX.length) : null;
export {
	attachmentDisposition,
	mediaAnswer,
	type MediaAnswer,
	type MediaOptions,
	type MediaRequest
} from './media';
