/**
 * Site images: slots, the admin upload pipeline, the public proxy — the domain's whole public surface, bound to
 * the application's services (app.ts). Routes call only these; tests call the modules beside with their own.
 */
import { COVER_HEIGHT, COVER_WIDTH } from '$lib/content/pages';
import { PHOTO_VALUE } from '$lib/images';
import { pages } from '$lib/pages/registry';
import { appDeps, photoDeps } from '../app';
import { canonicalUrl } from '../pages/seo';
import { recordAudit, type Actor, type AdminActor } from '../audit';
import { readSingleFile } from '../http/multipart';
import { FsStorage, isValidObjectPath, storagePathOf, type SignedRead } from '../storage';
import { serveSlot, serveSlotImage, type ImageRequest } from './proxy';
import { imageProxyAnswer } from './entry-answer';
import { ValidationError } from '../errors';
import {
	ALT_MAX,
	imagesOfPage,
	listSiteImages,
	setSiteImage,
	type PageImage,
	type SiteImageChange
} from './service';
import { storedValues } from './slot-values';
import { PAGE_LABELS, SLOTS, slotOf } from './slots';
import { MAX_UPLOAD_BYTES } from '../imaging';
import { storeUpload } from './upload';
import { recordImageProxy } from '../metrics';

/** Every slot with its value and a preview, for the admin. */
export const listSlots = () => {
	const { db, storage } = appDeps();
	return listSiteImages(db, storage);
};

/** The slots still showing their stock photo: what the dashboard asks the admin to replace. */
export async function slotsOnStock() {
	const values = await storedValues(appDeps().db);
	return SLOTS.filter((slot) => !values.has(slot.key)).map((slot) => ({
		key: slot.key,
		label: slot.label,
		pageLabel: PAGE_LABELS[slot.page]
	}));
}

/** Sets a slot to a `storage:` value or an allowed external URL, or back to its stock image (`null`). */
export const replaceSlot = (change: SiteImageChange, admin: AdminActor) =>
	setSiteImage(appDeps(), change, admin);

/** Reads one uploaded file from a multipart request and stores it, optimised, in the private bucket. */
export async function upload(request: Request, admin: Actor) {
	const { value, path, contentType, stats } = await uploadWithFields(request);
	await recordAudit(appDeps().db, admin, {
		kind: 'image.uploaded',
		subjectType: 'object',
		subjectId: path,
		changes: {
			stored: { before: null, after: { bytes: stats.sizeAfter, width: stats.width, height: stats.height } }
		}
	});
	// What CONTRACT §3 answers: the stored value and its stats (the widths follow in the background).
	return { value, path, contentType, stats };
}

async function uploadWithFields(
	request: Request,
	check: (fields: Record<string, string>) => void = () => {}
) {
	const { storage, config } = appDeps();
	const file = await readSingleFile(request, 'file', MAX_UPLOAD_BYTES);
	// The whole body is read: a refusal now leaves nothing stored and nothing unread.
	check(file.fields);
	const stored = await storeUpload(storage, file.data, file.mimeType, { maxEdge: config.imageMaxEdge });
	return { ...stored, fields: file.fields };
}

/**
 * Upload, then point the slot at it (the admin page, with or without JavaScript): the photo comes with its alt
 * text, which a new photo needs (the old one described another picture).
 */
export async function uploadToSlot(request: Request, key: string, admin: AdminActor) {
	const stored = await uploadWithFields(request, (fields) => {
		if (!slotOf(key))
			throw new ValidationError({ key: [`La clé « ${key} » ne correspond à aucun emplacement d’image.`] });
		const alt = fields.alt?.trim() ?? '';
		if (!alt) throw new ValidationError({ alt: ['Décrivez la photo en quelques mots (texte alternatif).'] });
		// eslint-disable-next-line no-control-regex -- one line of text, no control character
		if (alt.length > ALT_MAX || /[\u0000-\u001f\u007f]/.test(alt))
			throw new ValidationError({
				alt: [`Texte alternatif invalide (une ligne, ${ALT_MAX} caractères au plus).`]
			});
	});
	// The page links the photo only once its widths exist: a width asked under its `v` is cached for good. Widths
	// that could not be stored (logged) are served from the full image: the photo is set all the same.
	await stored.variantsStored.catch(() => {});
	await replaceSlot({ key, url: stored.value, alt: stored.fields.alt }, admin);
	const slot = slotOf(key)!;
	return { ...stored, displayWidth: slot.width };
}

/** What the server entry answers of /api/img/{key} itself: stored photos (entry-answer.ts). */
export const entryAnswer = imageProxyAnswer(photoDeps);

/** GET /api/img/{key}: null for an unknown key. */
export async function serve(key: string, request: ImageRequest): Promise<Response | null> {
	const slot = slotOf(key);
	if (!slot) {
		recordImageProxy('not_found');
		return null;
	}
	const response = await serveSlot(appDeps(), slot, request);
	recordImageProxy(
		response.status === 304
			? 'not_modified'
			: response.headers.has('x-image-fallback')
				? 'fallback'
				: 'served'
	);
	return response;
}

/**
 * An article's cover (issue « Content, part 1 »): a stored photo that belongs to no slot, through the same pipeline
 * as the slots' — a fresh signed URL, the upload's widths, the proxy's cache headers. Null for a value that is not
 * a stored photo.
 */
export function serveCover(value: string, request: ImageRequest): Promise<Response> | null {
	const objectPath = storagePathOf(value);
	// A revision published before covers were held to the pipeline's photos serves nothing else either.
	if (objectPath === null || !isValidObjectPath(objectPath) || !PHOTO_VALUE.test(value)) return null;
	const slot = {
		key: 'cover',
		page: '/' as const,
		label: 'Couverture',
		defaultUrl: value,
		width: COVER_WIDTH,
		height: COVER_HEIGHT
	};
	// The cover is its article's og:image and JSON-LD image: indexable, where the proxy's other answers say noindex.
	return serveSlotImage(appDeps(), slot, value, request).then((answer) => {
		answer.headers.delete('x-robots-tag');
		return answer;
	});
}

/** The `?v=` of an image URL: a digest of its value (a new photo, a new URL). */
export { versionOf as imageVersion } from './slot-values';

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

export type { UploadStats } from '../imaging';
export type { PageImage, SiteImageEntry } from './service';

/**
 * What every page with image slots loads — its images and its canonical URL — found from the page registry by
 * the requested path, so that a route spells its path nowhere but in its folder name.
 */
export async function slotPageData(
	path: string
): Promise<{ images: Record<string, PageImage>; canonical: string }> {
	const page = pages.slotPages.find((p) => p.path === path);
	// A route with slots but no registry line is a programming error: fail loudly rather than show no images.
	if (!page) throw new Error(`${path} has no entry with slots in src/lib/pages/registry.ts`);
	return { images: await imagesOfPage(appDeps().db, page.path), canonical: canonicalUrl(page.path) };
}
