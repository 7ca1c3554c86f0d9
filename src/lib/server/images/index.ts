/** Site images: slots, the admin upload pipeline, the public proxy. The domain's whole public surface. */
export { SLOTS, PAGE_LABELS, slotOf, slotsOfPage, pageOfKey, type Slot, type SitePage } from './slots';
export {
	storeUpload,
	optimiseImage,
	assertImageSignature,
	UndecodableImageError,
	MAX_UPLOAD_BYTES,
	TARGET_BYTES,
	QUALITY_STEPS,
	STORED_CACHE_CONTROL,
	type UploadStats,
	type StoredUpload
} from './upload';
export {
	serveSlotImage,
	serveFallbackImage,
	PROXY_CACHE_CONTROL,
	FALLBACK_CACHE_CONTROL,
	SIGNED_URL_SECONDS
} from './proxy';
export {
	listSiteImages,
	setSiteImage,
	serveSiteImage,
	storedValue,
	storedValues,
	valueProblem,
	imagesOfPage,
	type PageImage,
	type SiteImageEntry
} from './site-images';
export { detectImageType, ACCEPTED_TYPES } from './signature';
export {
	externalUrlProblem,
	isInternalAddress,
	fetchExternalImage,
	BODY_STALL_MS,
	HEADERS_TIMEOUT_MS
} from './remote';
