/** An upload stored as the pipeline made it (imaging/): `<uuid>.webp`, its smaller widths after the answer. */
import { randomUUID } from 'node:crypto';
import { optimiseImage, variantPath, type UploadStats } from '../imaging';
import { inBackground } from '../lifecycle';
import { toStorageValue, type Storage } from '../storage';

/** A stored upload never changes: its name is new for every upload. */
export const STORED_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface StoredUpload {
	value: string;
	path: string;
	contentType: 'image/webp';
	stats: UploadStats;
	/** Settles when the smaller widths are stored too (they are made after the answer). */
	variantsStored: Promise<void>;
}

/** Optimises and stores an upload; the object's name comes from the output type, never from the client. */
export async function storeUpload(
	storage: Storage,
	input: Buffer,
	declaredType: string,
	options: { maxEdge: number }
): Promise<StoredUpload> {
	const { webp, variants, stats } = await optimiseImage(input, declaredType, options);
	const path = `${randomUUID()}.webp`;
	const stored = { contentType: 'image/webp', cacheControl: STORED_CACHE_CONTROL };
	await storage.put(path, webp, stored);
	// The smaller widths follow the answer (an API upload does not wait for them; shutdown does, and so does an
	// upload into a slot before the page links it): until they are stored, the proxy serves the full image.
	const variantsStored = inBackground(
		variants().then((made) =>
			Promise.all(made.map((v) => storage.put(variantPath(path, v.width), v.webp, stored))).then(() => {})
		)
	);
	return { value: toStorageValue(path), path, contentType: 'image/webp', stats, variantsStored };
}
