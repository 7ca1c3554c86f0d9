/**
 * The image pipeline (SEED.md part 4): validate by signature → auto-rotate → sRGB → strip all metadata → resize
 * to the maximum edge → WebP at quality 82, 72, 62, 50 until ≤ 1 MB, and the smaller widths. The image is decoded,
 * rotated and resized once into raw pixels; each quality step only re-encodes them. Infrastructure shared by the
 * site's images (images/upload.ts stores the result) and the course's posters: no database, no storage.
 */
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { AppError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';
import type { UploadStats } from '$lib/schemas/images';
import { Slots } from '../slots';
import { widthsBelow, type ImageWidth } from '$lib/images';
import { ACCEPTED_TYPES, detectImageType, isAcceptedType } from './signature';

export type { UploadStats };

export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
export const TARGET_BYTES = 1024 * 1024;
export const QUALITY_STEPS = [82, 72, 62, 50] as const;
export const MAX_INPUT_PIXELS = 50_000_000;
/** The smaller widths are for screens that show them small: a lower quality is invisible there, and lighter. */
export const VARIANT_QUALITY = 72;
const PROCESSING_TIMEOUT_SECONDS = 30;

// Memory stays flat under load: no libvips operation cache, and one libvips thread per transform — parallelism
// comes from running one transform per core (below), which keeps each upload's latency predictable.
sharp.cache(false);
sharp.concurrency(1);

export class UndecodableImageError extends AppError {
	constructor(message = 'L’image est illisible ou corrompue.') {
		super(422, message);
	}
}

const cores = availableParallelism();
/** One transform per core and a short queue. */
export const transformSlots = new Slots(
	cores,
	cores * 2,
	'Trop d’images en cours de traitement. Réessayez dans quelques secondes.'
);

/** Checks the declared type against the accepted list and the file's own first bytes (415 otherwise). */
export function assertImageSignature(declaredType: string, bytes: Uint8Array): void {
	const declared = declaredType.split(';')[0]!.trim().toLowerCase();
	if (!isAcceptedType(declared)) {
		throw new UnsupportedMediaTypeError(
			`Type de fichier refusé (${declared || 'inconnu'}). Formats acceptés : JPEG, PNG, GIF, WebP, AVIF.`
		);
	}
	const actual = detectImageType(bytes);
	if (actual !== declared) {
		throw new UnsupportedMediaTypeError(
			actual
				? `Le fichier est un ${actual} mais a été déclaré comme ${declared}.`
				: 'Le contenu du fichier n’est pas une image reconnue (JPEG, PNG, GIF, WebP ou AVIF).'
		);
	}
}

/** sharp's format names for each accepted type: the decoder must agree with the signature. */
const SHARP_FORMATS: Record<(typeof ACCEPTED_TYPES)[number], string[]> = {
	'image/jpeg': ['jpeg'],
	'image/png': ['png'],
	'image/gif': ['gif'],
	'image/webp': ['webp'],
	'image/avif': ['heif', 'avif']
};

function decodeError(error: unknown): AppError {
	const message = error instanceof Error ? error.message : String(error);
	if (/pixel limit/i.test(message)) {
		return new PayloadTooLargeError(`L’image dépasse ${MAX_INPUT_PIXELS / 1_000_000} mégapixels.`);
	}
	if (/timeout/i.test(message))
		return new UndecodableImageError('Le traitement de l’image a pris trop de temps.');
	return new UndecodableImageError();
}

export async function optimiseImage(
	input: Buffer,
	declaredType: string,
	{ maxEdge }: { maxEdge: number }
): Promise<{ webp: Buffer; variants: () => Promise<Variant[]>; stats: UploadStats }> {
	assertImageSignature(declaredType, input.subarray(0, 64));
	const type = declaredType.split(';')[0]!.trim().toLowerCase() as (typeof ACCEPTED_TYPES)[number];
	return transformSlots.run(async () => {
		try {
			const source = sharp(input, {
				failOn: 'error',
				limitInputPixels: MAX_INPUT_PIXELS,
				animated: false,
				pages: 1
			});
			const meta = await source.metadata();
			if (!meta.format || !SHARP_FORMATS[type].includes(meta.format)) {
				throw new UnsupportedMediaTypeError('Le contenu du fichier ne correspond pas à son type.');
			}
			const { data, info } = await source
				.timeout({ seconds: PROCESSING_TIMEOUT_SECONDS })
				.rotate()
				.resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
				.toColourspace('srgb')
				.raw()
				.toBuffer({ resolveWithObject: true });

			let webp: Buffer = Buffer.alloc(0);
			let quality: number = QUALITY_STEPS[0];
			for (quality of QUALITY_STEPS) {
				// Raw pixels carry no metadata at all: no EXIF, GPS, XMP, IPTC or ICC can reach the output.
				webp = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
					.timeout({ seconds: PROCESSING_TIMEOUT_SECONDS })
					.webp({ quality, effort: 4 })
					.toBuffer();
				if (webp.length <= TARGET_BYTES) break;
			}
			// The widths pages offer in srcset, from the same rotated pixels: made on demand (storeUpload runs
			// this once the full image is stored), each in a transform slot of its own.
			const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
			const variantQuality = Math.min(quality, VARIANT_QUALITY);
			const variants = () =>
				Promise.all(
					widthsBelow(info.width).map((width) =>
						transformSlots.run(async () => ({
							width,
							webp: await sharp(data, raw)
								.timeout({ seconds: PROCESSING_TIMEOUT_SECONDS })
								.resize({ width })
								.webp({ quality: variantQuality, effort: 4 })
								.toBuffer()
						}))
					)
				);
			return {
				webp,
				variants,
				stats: {
					sizeBefore: input.length,
					sizeAfter: webp.length,
					quality,
					width: info.width,
					height: info.height,
					inputFormat: meta.format === 'heif' ? 'avif' : meta.format,
					targetMet: webp.length <= TARGET_BYTES
				}
			};
		} catch (error) {
			if (error instanceof AppError) throw error;
			throw decodeError(error);
		}
	});
}

export interface Variant {
	width: ImageWidth;
	webp: Buffer;
}
