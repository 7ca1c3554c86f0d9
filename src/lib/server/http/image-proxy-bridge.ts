/**
 * How the production server entry reaches the image proxy's quick answer (src/server/image-proxy.ts says why it
 * answers `/api/img/{key}` itself): at start-up the app puts its answering function here (from the init hook); the
 * entry reads it. Nothing of the app is imported here: the entry is bundled on its own.
 */
import type { Readable } from 'node:stream';
import { processWide } from '../../process-wide';

/** The route the request log names for these answers: SvelteKit's, which answers the rest. */
export const IMAGE_PROXY_ROUTE = '/api/img/[key]';
export const IMAGE_PROXY_PREFIX = '/api/img/';

/**
 * A stored image's answer, ready to write: its status, its whole head as a flat `[name, value, …]` list (made once
 * per image, not per request) and its body — the bytes read from storage for this request, a stream from the
 * bucket, or null (HEAD, 304).
 */
export interface ImageProxyAnswerParts {
	status: 200 | 304;
	head: readonly string[];
	body: Buffer | Readable | null;
	/** Called once the answer is written whole or its connection is gone: a buffer body may then be used again. */
	sent?: () => void;
}

/**
 * The answer to a GET or HEAD of `/api/img/{key}` (`url` is the request's, query included), or null when the app's
 * route must answer instead: an unknown key, a width no page offers, an external or stock image, a variant not
 * made yet, an upstream that failed (the route serves the fallback and says so). Given at once (not a promise) when
 * nothing had to be waited for: a photo already known, read on the files driver.
 */
export type ImageProxyAnswer = (request: {
	url: string;
	head: boolean;
	ifNoneMatch: string | undefined;
}) => ImageProxyAnswerParts | null | Promise<ImageProxyAnswerParts | null>;

const shared = processWide<ImageProxyAnswer>('image-proxy');

export function exposeImageProxy(answer: ImageProxyAnswer): void {
	shared.set(answer);
}

export const exposedImageProxy = (): ImageProxyAnswer | undefined => shared.get();
