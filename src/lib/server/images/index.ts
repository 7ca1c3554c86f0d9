/**
 * Site images: slots, the admin upload pipeline, the public proxy — the domain's whole public surface, bound to
 * the application's services (app.ts). Routes call only these; tests call the modules beside with their own.
 */
import { appDeps } from '../app';
import { readSingleFile } from '../http/multipart';
import { FsStorage, isValidObjectPath, type SignedRead } from '../storage';
import { serveSlot } from './proxy';
import { imagesOfPage, listSiteImages, setSiteImage, type SiteImageChange } from './service';
import { slotOf, type SitePage } from './slots';
import { MAX_UPLOAD_BYTES, storeUpload } from './upload';

/** The images of a page, as `/api/img/{key}?v=…` paths. */
export const pageImages = (page: SitePage) => imagesOfPage(appDeps().db, page);

/** Every slot with its value and a preview, for the admin. */
export const listSlots = () => {
	const { db, storage } = appDeps();
	return listSiteImages(db, storage);
};

/** Sets a slot to a `storage:` value or an allowed external URL, or back to its stock image (`null`). */
export const replaceSlot = (change: SiteImageChange, adminId: string) =>
	setSiteImage(appDeps(), change, adminId);

/** Reads one uploaded file from a multipart request and stores it, optimised, in the private bucket. */
export async function upload(request: Request) {
	const { storage, config } = appDeps();
	const file = await readSingleFile(request, 'file', MAX_UPLOAD_BYTES);
	return storeUpload(storage, file.data, file.mimeType, { maxEdge: config.imageMaxEdge });
}

/** Upload, then point the slot at it: the no-JavaScript path of the admin page. */
export async function uploadToSlot(request: Request, key: string, adminId: string) {
	const stored = await upload(request);
	await replaceSlot({ key, url: stored.value }, adminId);
	return stored;
}

/** GET /api/img/{key}: null for an unknown key. */
export function serve(key: string, request: { ifNoneMatch: string | null; head: boolean }) {
	const slot = slotOf(key);
	return slot ? serveSlot(appDeps(), slot, request) : null;
}

/** A stored image by its object path (`<uuid>.webp`), for a route that has checked who may see it; null if none. */
export async function readStored(objectPath: string) {
	if (!isValidObjectPath(objectPath)) return null;
	return appDeps().storage.read(objectPath);
}

/** The hosts external image URLs may use (IMAGE_REMOTE_HOSTS). */
export const remoteHosts = () => appDeps().config.imageRemoteHosts;

/** A GET through one of the fs driver's signed URLs; null when signed URLs are not ours (s3) or not this bucket. */
export function readSignedObject(
	bucket: string,
	objectPath: string,
	params: URLSearchParams,
	ifNoneMatch: string | null
): Promise<SignedRead> | null {
	const { storage } = appDeps();
	if (!(storage instanceof FsStorage) || bucket !== storage.bucket) return null;
	return storage.readSigned(objectPath, params, ifNoneMatch);
}

export type { UploadStats } from './upload';
export type { PageImage, SiteImageEntry } from './service';
