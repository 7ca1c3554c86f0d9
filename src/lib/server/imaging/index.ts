/** What a file is, by its own first bytes, and the WebP pipeline: for the site's images and the course's files. */
export {
	ACCEPTED_TYPES,
	detectImageType,
	isAcceptedType,
	SIGNATURE_BYTES,
	type AcceptedType
} from './signature';
export {
	assertImageSignature,
	MAX_INPUT_PIXELS,
	MAX_UPLOAD_BYTES,
	optimiseImage,
	QUALITY_STEPS,
	TARGET_BYTES,
	transformSlots,
	UndecodableImageError,
	VARIANT_QUALITY,
	type UploadStats,
	type Variant
} from './pipeline';
export { pngOf, srgbProfile } from './documents';
export { variantOf, variantPath } from './variants';
