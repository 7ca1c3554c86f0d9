/**
 * The signature and stamp an attestation prints (issue « Experience, part 4 », point 2): one image an admin uploads
 * in /admin/cours, through the image pipeline like every upload (checked by its own bytes, rotated, stripped of its
 * metadata, WebP), kept in the private bucket beside the attestations. Nobody but an admin ever sees the file:
 * the public proxy serves site photos, the course's entry module files; members see it printed, in their PDF.
 * An attestation keeps the signature it was issued with: a new image signs the ones issued after it.
 */
import { randomUUID } from 'node:crypto';
import { companyFileProgrammeName } from '$lib/company';
import { recordAudit, type Actor } from '../audit';
import type { Db } from '../db';
import { log } from '../log';
import { MAX_UPLOAD_BYTES, optimiseImage, pngOf } from '../imaging';
import type { Storage } from '../storage';
import * as queries from './queries';

/** A scan or a photo of a signature and a stamp: as large as any photo an admin uploads. */
export const SIGNATURE_MAX_BYTES = MAX_UPLOAD_BYTES;
/**
 * Printed at most 212 × 56 points (3 inches wide): 900 pixels is 300 dpi, a print's; larger only makes every
 * attestation heavier (the PDF holds it as PNG, for its transparency).
 */
const SIGNATURE_MAX_EDGE = 900;

/** The file as the form sent it (its bytes and declared type: the pipeline checks both). */
export interface SignatureFile {
	data: Buffer;
	mimeType: string;
}

export interface SignatureDeps {
	db: Db;
	storage: Storage;
}

const objectPathOf = () => `attestations/signature-${randomUUID()}.webp`;

/** Stores the image and points the settings at it; the image it replaces is deleted once nothing names it. */
export async function setSignature(deps: SignatureDeps, file: SignatureFile, admin: Actor): Promise<void> {
	const { webp, stats } = await optimiseImage(file.data, file.mimeType, { maxEdge: SIGNATURE_MAX_EDGE });
	const path = objectPathOf();
	await deps.storage.put(path, webp, { contentType: 'image/webp', cacheControl: 'private, no-store' });
	let before: string | null;
	try {
		before = await deps.db.transaction(async (tx) => {
			const previous = await queries.lockSignaturePath(tx, companyFileProgrammeName());
			await queries.saveSignaturePath(tx, path);
			await recordAudit(tx, admin, {
				kind: 'course.signature_set',
				subjectType: 'course',
				changes: {
					signature: {
						before: previous,
						after: { path, bytes: stats.sizeAfter, width: stats.width, height: stats.height }
					}
				}
			});
			return previous;
		});
	} catch (error) {
		// Nothing names the new file: it goes, and the settings are as they were.
		await deps.storage.delete(path).catch(() => {});
		throw error;
	}
	if (before) await deleteQuietly(deps.storage, before);
}

/** Back to no signature: the attestations issued from now on leave room for one. */
export async function removeSignature(deps: SignatureDeps, admin: Actor): Promise<void> {
	const before = await deps.db.transaction(async (tx) => {
		const previous = await queries.lockSignaturePath(tx, companyFileProgrammeName());
		if (!previous) return null;
		await queries.saveSignaturePath(tx, null);
		await recordAudit(tx, admin, {
			kind: 'course.signature_removed',
			subjectType: 'course',
			changes: { signature: { before: previous, after: null } }
		});
		return previous;
	});
	if (before) await deleteQuietly(deps.storage, before);
}

/**
 * Which image is set (null: none), for the preview's address: it changes with the image, so that the browser
 * never shows the one it replaced.
 */
export async function signatureVersion(deps: SignatureDeps): Promise<string | null> {
	const path = await queries.signaturePathRow(deps.db);
	return path ? (/signature-([\w-]+)\.webp$/.exec(path)?.[1] ?? path) : null;
}

/** The stored image (WebP), for the admin's preview; null when none is set or its file is gone. */
export async function signatureImage(deps: SignatureDeps): Promise<Buffer | null> {
	const path = await queries.signaturePathRow(deps.db);
	return path ? readWhole(deps.storage, path) : null;
}

/**
 * The image as the PDF takes it (PNG), for an attestation being issued; null when none is set. A file that is
 * gone (a bucket restored without it) is said in the log and the attestation leaves room for a signature:
 * the member's attestation is not refused for it.
 */
export async function signaturePng(deps: SignatureDeps): Promise<Buffer | null> {
	const path = await queries.signaturePathRow(deps.db);
	if (!path) return null;
	const image = await readWhole(deps.storage, path);
	if (!image) {
		log.warn('the attestation signature image is missing from storage: issued without it', { path });
		return null;
	}
	return pngOf(image);
}

async function readWhole(storage: Storage, path: string): Promise<Buffer | null> {
	const object = await storage.read(path);
	if (!object) return null;
	const chunks: Buffer[] = [];
	for await (const chunk of object.body) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

async function deleteQuietly(storage: Storage, path: string): Promise<void> {
	await storage.delete(path).catch((error: unknown) => {
		log.warn('a replaced signature image could not be deleted', { path, error });
	});
}
