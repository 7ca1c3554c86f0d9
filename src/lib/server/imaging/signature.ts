/** Recognises an image by its first bytes (SEED.md part 4, step 2): the declared type must match them. */

export const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

export const isAcceptedType = (type: string): type is AcceptedType =>
	(ACCEPTED_TYPES as readonly string[]).includes(type);

/** How many leading bytes `detectImageType` needs. */
export const SIGNATURE_BYTES = 32;

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
	signature.every((b, i) => bytes[offset + i] === b);

const ascii = (bytes: Uint8Array, start: number, end: number) =>
	String.fromCharCode(...bytes.subarray(start, end));

/** The image type the bytes really are, among the accepted ones; null for anything else. */
export function detectImageType(bytes: Uint8Array): AcceptedType | null {
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
	if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'image/gif';
	if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
	// ISO-BMFF: a box size, "ftyp", a major brand, a version, then compatible brands.
	if (ascii(bytes, 4, 8) === 'ftyp') {
		const boxSize = (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
		const end = Math.min(bytes.length, Math.max(16, boxSize));
		const brands = [ascii(bytes, 8, 12)];
		for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(bytes, i, i + 4));
		if (brands.includes('avif') || brands.includes('avis')) return 'image/avif';
	}
	return null;
}
