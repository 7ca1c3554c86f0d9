/**
 * The request body limit of every route, in one place. The server entry refuses a body past its route's limit
 * before SvelteKit buffers any of it (the hook does the same under `vite dev`), so that no form post or JSON call
 * can make a worker hold megabytes: every form and JSON route fits in 64 KB, and only the upload routes take
 * the 20 MB photo. adapter-node's own BODY_SIZE_LIMIT stays sized for the upload: it is the backstop for every
 * route, this table the limit of each.
 *
 * No SvelteKit import here (nor in problem.ts): the production entry (build/server.js) uses this module before SvelteKit is loaded.
 */
import { problemParts, type AnswerParts } from './problem';

/** Form actions and JSON routes: their longest fields (a message, a course description) are a few KB. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** The largest photo an admin may upload (the image pipeline refuses anything larger). */
export const UPLOAD_FILE_LIMIT = 20 * 1024 * 1024;

/** Stripe's events: the webhook reads its raw body (it is signed) up to 1 MB. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** The upload routes: the photo plus room for the multipart envelope (boundaries, part headers, a few fields). */
export const UPLOAD_BODY_LIMIT = UPLOAD_FILE_LIMIT + 64 * 1024;

/**
 * One PATCH of a course file's tus upload: the editor sends 8 MB at a time; a client may send up to 16 MB in one
 * request (a larger file is many requests, each resumable).
 */
export const COURSE_CHUNK_LIMIT = 16 * 1024 * 1024;

/** A page's or an article's draft (issue « Content, part 1 »): a legal text in Markdown is ~10 KB, 60,000 characters at most. */
export const CONTENT_BODY_LIMIT = 256 * 1024;

/**
 * An attestation sent to its public page to be checked, without JavaScript (with it, the browser hashes the file
 * and sends nothing): a PDF with its fonts and a scanned signature is a few hundred KB; 2 MB is not one.
 */
export const ATTESTATION_FILE_LIMIT = 2 * 1024 * 1024;

/** A question to the trainer, or a reply, with its optional PDF or image (10 MB) and its text. */
export const QUESTION_BODY_LIMIT = 10 * 1024 * 1024 + 64 * 1024;

export interface RouteBodyLimit {
	method: string;
	/** The exact path, or an anchored pattern for a route with a parameter. */
	path: string | RegExp;
	/** A form action (`?/name`); none for an endpoint. */
	action?: string;
	limit: number;
}

/** Every route whose limit is not DEFAULT_BODY_LIMIT. */
export const ROUTE_BODY_LIMITS: readonly RouteBodyLimit[] = [
	{ method: 'POST', path: '/api/admin/upload', limit: UPLOAD_BODY_LIMIT },
	{ method: 'POST', path: '/admin/images', action: 'upload', limit: UPLOAD_BODY_LIMIT },
	{ method: 'POST', path: '/api/payments/webhook', limit: WEBHOOK_BODY_LIMIT },
	{ method: 'PATCH', path: /^\/api\/admin\/uploads\/[0-9a-f]{32}$/, limit: COURSE_CHUNK_LIMIT },
	{ method: 'PUT', path: /^\/api\/admin\/pages\/[a-z0-9-]{1,64}$/, limit: CONTENT_BODY_LIMIT },
	{ method: 'POST', path: '/api/admin/pages', limit: CONTENT_BODY_LIMIT },
	// The attestation's signature and stamp, from the course's settings (/admin/cours).
	{ method: 'POST', path: '/admin/cours', action: 'signature', limit: UPLOAD_BODY_LIMIT },
	// An attestation's file, checked by its public page.
	{
		method: 'POST',
		path: /^\/attestation\/[a-z2-7]{26}$/,
		action: 'file',
		limit: ATTESTATION_FILE_LIMIT + 64 * 1024
	},
	// A question to the trainer and the replies of a thread, each with an optional attachment.
	{ method: 'POST', path: '/questions', action: 'ask', limit: QUESTION_BODY_LIMIT },
	{
		method: 'POST',
		path: /^\/questions\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
		action: 'reply',
		limit: QUESTION_BODY_LIMIT
	},
	{
		method: 'POST',
		path: /^\/admin\/questions\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
		action: 'reply',
		limit: QUESTION_BODY_LIMIT
	},
	// An image for a course module, from its editor.
	{
		method: 'POST',
		path: /^\/admin\/cours\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
		action: 'image',
		limit: UPLOAD_BODY_LIMIT
	}
];

/**
 * The body limit of a request, from its method and its request target (`/path?query`, as on the request line).
 * Only an exact match gets a larger limit: an encoded or otherwise odd spelling of an upload path falls back to
 * the default, which can only make the limit stricter.
 */
export function bodyLimit(method: string | undefined, target: string | undefined): number {
	let url: URL;
	try {
		url = new URL(target ?? '/', 'http://localhost');
	} catch {
		return DEFAULT_BODY_LIMIT;
	}
	const action = actionName(url);
	const route = ROUTE_BODY_LIMITS.find(
		(r) =>
			r.method === method &&
			(typeof r.path === 'string' ? r.path === url.pathname : r.path.test(url.pathname)) &&
			r.action === action
	);
	return route?.limit ?? DEFAULT_BODY_LIMIT;
}

/** The form action a request targets, read as SvelteKit reads it: the first query parameter named `/…`. */
function actionName(url: URL): string | undefined {
	for (const name of url.searchParams.keys()) if (name.startsWith('/')) return name.slice(1) || 'default';
	return undefined;
}

/** The declared body length, or null when the request has none or it is not a plain number. */
export function declaredLength(header: string | null | undefined): number | null {
	if (header === null || header === undefined || !/^\s*\d+\s*$/.test(header)) return null;
	return Number(header);
}

/** The 413 problem details (RFC 9457) of a body past its limit, as parts the entry and the hook both write. */
export function payloadTooLarge(limit: number): AnswerParts {
	const size =
		limit >= 1024 * 1024 ? `${Math.floor(limit / 1024 / 1024)} Mo` : `${Math.floor(limit / 1024)} Ko`;
	return problemParts(413, `Le contenu envoyé dépasse la taille permise pour cette adresse (${size}).`, {
		headers: {
			'cache-control': 'no-store',
			// The rest of the body is never read: the connection cannot carry another request after it.
			connection: 'close'
		}
	});
}
