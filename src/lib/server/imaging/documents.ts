/**
 * Images for documents (the attestation's PDF): a PDF holds JPEG or PNG, not WebP, so a stored image is decoded once
 * more and handed over as PNG (its transparency kept: a stamp over the signature line); and the sRGB profile the
 * pipeline converts every upload to, which a PDF/A document names as its output intent (libvips's own, 480 bytes).
 */
import sharp from 'sharp';
import { transformSlots } from './pipeline';

/** A stored image (the pipeline's WebP) as PNG, in a transform slot like every decode. */
export const pngOf = (image: Uint8Array): Promise<Buffer> =>
	transformSlots.run(() => sharp(image, { failOn: 'error' }).png({ compressionLevel: 9 }).toBuffer());

let profile: Promise<Buffer> | null = null;

/** The sRGB ICC profile, read from an image libvips tags with it (the library has no other way to hand it out). */
export function srgbProfile(): Promise<Buffer> {
	profile ??= sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } })
		.withIccProfile('srgb')
		.png()
		.toBuffer()
		.then(async (png) => {
			const { icc } = await sharp(png).metadata();
			if (!icc) throw new Error('libvips gave no sRGB profile');
			return icc;
		})
		.catch((error) => {
			profile = null;
			throw error;
		});
	return profile;
}
