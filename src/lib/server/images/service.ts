/** The rules of site images: which image each slot shows, its admin listing, and validated changes. */
import { changesOf, recordAudit, type AdminActor } from '../audit';
import type { Config } from '../config';
import type { DbOrTx } from '../db';
import { ValidationError } from '../errors';
import { variantPath } from '../imaging/variants';
import { log } from '../log';
import * as pageCache from '../pages/cache';
import { isValidObjectPath, storagePathOf, type Storage } from '../storage';
import * as queries from './queries';
import sharp from 'sharp';
import { IMAGE_WIDTHS, PHOTO_VALUE, type PageImage } from '$lib/images';
import { SIGNED_URL_SECONDS, storedValues, versionOf, widthInUrl } from './slot-values';
import { externalUrlProblem } from './remote';
import { PAGE_LABELS, SLOTS, slotOf, slotsOfPage, type SitePage } from './slots';

export interface SiteImageEntry {
	key: string;
	page: SitePage;
	pageLabel: string;
	label: string;
	/** The alt text pages show: the admin's, or the slot's label. */
	alt: string;
	width: number;
	height: number;
	url: string;
	previewUrl: string;
	isDefault: boolean;
	updatedAt: string | null;
}

/** What a browser can display for a value: a fresh signed URL for `storage:`, else the URL itself. */
async function previewOf(storage: Storage, value: string): Promise<string> {
	const objectPath = storagePathOf(value);
	return objectPath === null ? value : storage.signedUrl(objectPath, SIGNED_URL_SECONDS);
}

/** Every known slot, with or without a row. */
export async function listSiteImages(db: DbOrTx, storage: Storage): Promise<SiteImageEntry[]> {
	const values = await storedValues(db);
	return Promise.all(
		SLOTS.map(async (slot) => {
			const row = values.get(slot.key);
			const url = row?.url ?? slot.defaultUrl;
			return {
				key: slot.key,
				page: slot.page,
				pageLabel: PAGE_LABELS[slot.page],
				label: slot.label,
				alt: row?.alt ?? slot.label,
				width: slot.width,
				height: slot.height,
				url,
				previewUrl: await previewOf(storage, url).catch(() => slot.defaultUrl),
				isDefault: !row,
				updatedAt: row?.updatedAt.toISOString() ?? null
			};
		})
	);
}

/** Why a value may not be saved (French, for the admin), or null. */
export async function valueProblem(
	storage: Storage,
	config: Pick<Config, 'imageRemoteHosts'>,
	value: string
): Promise<string | null> {
	const objectPath = storagePathOf(value);
	if (objectPath !== null) {
		if (!isValidObjectPath(objectPath)) return 'Le chemin storage: est invalide.';
		if (!PHOTO_VALUE.test(value))
			return 'Seule une photo envoyée ici (« Choisir une photo ») peut illustrer le site, aucun autre fichier du stockage.';
		return (await storage.stat(objectPath))
			? null
			: 'Aucun fichier n’existe à ce chemin dans le stockage privé.';
	}
	return externalUrlProblem(value, config.imageRemoteHosts);
}

export interface SiteImageChange {
	key: string;
	url: string | null;
	/** What the new photo shows; empty or absent: the slot's label. */
	alt?: string | null;
}

export const ALT_MAX = 250;

/** Saves a slot's value (or resets it when `url` is null), then purges the slot's page before returning. */
export async function setSiteImage(
	deps: { db: DbOrTx; storage: Storage; config: Pick<Config, 'imageRemoteHosts'> },
	change: SiteImageChange,
	admin: AdminActor
): Promise<{ key: string; url: string; previewUrl: string; updatedAt: string | null }> {
	const slot = slotOf(change.key);
	if (!slot)
		throw new ValidationError({
			key: [`La clé « ${change.key} » ne correspond à aucun emplacement d’image.`]
		});
	const alt = change.url === null ? null : change.alt?.trim() || null;
	if (change.url !== null) {
		const problem = await valueProblem(deps.storage, deps.config, change.url);
		if (problem) throw new ValidationError({ url: [problem] });
		if (alt && alt.length > ALT_MAX)
			throw new ValidationError({ alt: [`Texte alternatif trop long (${ALT_MAX} caractères au plus).`] });
	}
	const { updatedAt, replaced } = await deps.db.transaction(async (tx) => {
		const before = await queries.selectSlotValue(tx, slot.key);
		let written: Date | null = null;
		if (change.url === null) await queries.deleteSlotValue(tx, slot.key);
		else
			written = await queries.upsertSlotValue(
				tx,
				slot.key,
				change.url,
				alt,
				await photoWidth(deps.storage, change.url),
				admin.id
			);
		await recordAudit(tx, admin, {
			kind: change.url === null ? 'site_image.reset' : 'site_image.replaced',
			subjectType: 'site_image',
			subjectId: slot.key,
			changes: changesOf(before, change.url === null ? null : { url: change.url, alt }, ['url', 'alt'])
		});
		return { updatedAt: written, replaced: before && before.url !== change.url ? before.url : null };
	});
	await pageCache.purge(slot.page);
	if (replaced) await deleteIfUnused(deps, replaced);
	const url = change.url ?? slot.defaultUrl;
	return {
		key: slot.key,
		url,
		previewUrl: await previewOf(deps.storage, url),
		updatedAt: updatedAt?.toISOString() ?? null
	};
}

export type { PageImage };

/**
 * A photo a slot no longer shows is deleted from the bucket with its widths, unless something still names it (another
 * slot, a cover in a draft or a revision: images/queries.ts `photoInUse`) — a replaced photo stayed forever, and a
 * site that changes its photos each season grew by their size each time. After the page's purge: nothing served
 * from now on names it (the proxy answers a slot by its current value, whatever `v` an old page asks). A delete that
 * fails is logged and left: the slot has changed all the same.
 */
async function deleteIfUnused(deps: { db: DbOrTx; storage: Storage }, value: string): Promise<void> {
	if (!PHOTO_VALUE.test(value) || (await queries.photoInUse(deps.db, value))) return;
	const objectPath = storagePathOf(value)!;
	try {
		await deps.storage.delete(objectPath);
		for (const width of IMAGE_WIDTHS) await deps.storage.delete(variantPath(objectPath, width));
		log.info('replaced site photo deleted', { objectPath });
	} catch (error) {
		log.warn('a replaced site photo could not be deleted', { objectPath, error });
	}
}

/**
 * The photo's own width: a stored upload's, read from its header once when it is chosen; a stock host's, from the
 * width its URL asks. Null when unknown (the slot's width is assumed, as before 0.4.0).
 */
async function photoWidth(storage: Storage, value: string): Promise<number | null> {
	const objectPath = storagePathOf(value);
	if (objectPath === null) return widthInUrl(value);
	const object = await storage.read(objectPath);
	if (!object) return null;
	const chunks: Buffer[] = [];
	for await (const chunk of object.body) chunks.push(chunk as Buffer);
	return (await sharp(Buffer.concat(chunks)).metadata()).width ?? null;
}

/**
 * The images of a page as `<img>` attributes. `?v=` changes whenever the slot's value changes, so a purged page
 * shows a new image at once despite the 55-minute cache on /api/img (CONTRACT §4).
 */
export async function imagesOfPage(db: DbOrTx, page: SitePage): Promise<Record<string, PageImage>> {
	const values = await storedValues(db);
	return Object.fromEntries(
		slotsOfPage(page).map((slot) => {
			const row = values.get(slot.key);
			const value = row?.url ?? slot.defaultUrl;
			const sourceWidth = (row ? row.width : null) ?? widthInUrl(value) ?? slot.width;
			return [
				slot.key,
				{
					src: `/api/img/${slot.key}?v=${versionOf(value)}`,
					alt: row?.alt ?? slot.label,
					width: slot.width,
					height: slot.height,
					sourceWidth
				}
			];
		})
	);
}
