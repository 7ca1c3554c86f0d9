import type { Handle, HandleServerError, RequestEvent, ServerInit } from '@sveltejs/kit';
import { error } from '@sveltejs/kit';
import { isDatabaseUnavailable, isDiskFull } from '$lib/server/db/unavailable';
import { outageAnswer } from '$lib/server/http/outage';
import { sequence } from '@sveltejs/kit/hooks';
import { building } from '$app/environment';
import * as backup from '$lib/server/backup';
import { sessionOf } from '$lib/server/http/session-cookie';
import { config } from '$lib/server/config';
import { database } from '$lib/server/db';
import { NewerSchemaError } from '$lib/server/db/migrate';
import { bodyLimit, declaredLength, payloadTooLarge } from '$lib/server/http/body-limits';
import {
	MIN_COMPRESSIBLE_BYTES,
	accepts,
	etagOf,
	isCompressible,
	noneMatch,
	notModifiedHeaders,
	varyOnEncoding
} from '$lib/server/http/compression';
import { scriptSrcFrom, securityHeaders } from '$lib/server/http/security-headers';
import { log, setLogLevel } from '$lib/server/log';
import { enableMetrics } from '$lib/server/metrics';
import { recordRoute, REQUEST_ID_HEADER } from '$lib/server/http/request-log';
import { startMaintenance } from '$lib/server/maintenance';
import { outageMessage, withReference } from '$lib/messages';
import { routeExistsIn } from '$lib/pages/modes';
import { isPrivatePath } from '$lib/pages/registry';
import { problem } from '$lib/server/http/problem';
import { isForeignWrite } from '$lib/server/http/same-origin';
import { answerStripeEvent } from '$lib/server/http/stripe-webhook';
import { STRIPE_WEBHOOK_PATH, exposeStripeWebhook } from '$lib/server/http/stripe-webhook-bridge';
import { COURSE_MEDIA_ROUTE, exposeCourseMedia } from '$lib/server/http/course-media-bridge';
import { exposeUnsubscribe } from '$lib/server/http/unsubscribe-bridge';
import { exposeAudienceTally } from '$lib/server/http/audience-bridge';
import { IMAGE_PROXY_ROUTE, exposeImageProxy } from '$lib/server/http/image-proxy-bridge';
import * as images from '$lib/server/images';
import { answerCourseMedia } from '$lib/server/http/course-media';
import {
	createHandle as createPageCaching,
	exposePageCache,
	registryPolicy,
	startPurgeListener
} from '$lib/server/pages/cache';
import * as content from '$lib/server/content';
import * as courses from '$lib/server/courses';
import * as showcase from '$lib/server/showcase';
import * as system from '$lib/server/system';
import * as insights from '$lib/server/insights';

export const init: ServerInit = async () => {
	// Building and prerendering run this too: no migration, no LISTEN, no timers then.
	if (building) return;
	setLogLevel(config.logLevel);
	enableMetrics(config.metricsToken !== null);
	try {
		await database.migrate(
			config.backupBeforeMigrating ? { beforeMigrating: backup.backupBeforeMigrating } : {}
		);
	} catch (error) {
		// An older build on a database a newer one migrated: said plainly, and no start (nothing was changed).
		if (error instanceof NewerSchemaError) {
			log.error('start refused: the database is newer than this build', { reason: error.message });
			process.exit(1);
		}
		throw error;
	}
	log.info('database ready', { driver: database.driver });
	// Pages and sign-in work without the bucket: say so in the log, and let /readyz tell the load balancer.
	void system.readiness().then(({ checks }) => {
		if (checks.storage === 'down')
			log.warn('storage unreachable at start-up', { driver: config.storage.driver });
	});
	startMaintenance();
	backup.startSchedule();
	// The audience the server entry counts (handed to it here: http/audience-bridge.ts), written every few seconds
	// (insights/audience.ts).
	const audience = insights.startAudienceWriter();
	if (audience) exposeAudienceTally(audience);
	await startPurgeListener(database.pg);
	// The site's words and the company file (written from the seed at the first start of this version): read now,
	// so that an e-mail sent before the first page view names the company as the admin last published it.
	await content.warmUp();
	// And the programme's name, if the admin gave it one with the course: the one every page and e-mail says.
	await courses.settings();
	await courses.listenForChanges(database.pg);
	exposePageCache();
	// The server entry answers Stripe's webhook itself in production, in the modes that have its route (whose id is
	// its path); without this, SvelteKit answers it.
	if (routeExistsIn(STRIPE_WEBHOOK_PATH, config.siteMode)) exposeStripeWebhook(answerStripeEvent);
	// And the course's files, piped from storage with the same checks as their route (src/server/course-media.ts).
	if (routeExistsIn(COURSE_MEDIA_ROUTE, config.siteMode)) exposeCourseMedia(answerCourseMedia);
	// And the image proxy's stored photos, their head made once (src/server/image-proxy.ts).
	if (routeExistsIn(IMAGE_PROXY_ROUTE, config.siteMode)) exposeImageProxy(images.entryAnswer);
	if (config.siteMode === 'platform') exposeUnsubscribe(courses.unsubscribeFromReminders);
};

/** Tells the request log (server entry) which route answers: its line names the route, never the raw path. */
const routeForTheLog: Handle = ({ event, resolve }) => {
	recordRoute(event.request.headers.get(REQUEST_ID_HEADER), event.route.id);
	return resolve(event);
};

/** Reads the session cookie into locals.user / locals.session (http/session-cookie.ts renews or deletes it). */
const authenticate: Handle = async ({ event, resolve }) => {
	let opened;
	try {
		opened = await sessionOf(event.cookies);
	} catch (error) {
		// The session cannot be read while the database is out: the documented 503, not a 500 per request.
		if (isDatabaseUnavailable(error)) return outageAnswer(event, error);
		throw error;
	}
	event.locals.user = opened?.user ?? null;
	event.locals.session = opened?.session ?? null;
	return resolve(event);
};

/** Sets headers on a response, copying it first when its headers are immutable (one passed on from fetch()). */
function withHeaders(response: Response, headers: Record<string, string | undefined>): Response {
	try {
		for (const [name, value] of Object.entries(headers)) if (value) response.headers.set(name, value);
		return response;
	} catch {
		const copy = new Response(response.body, response);
		for (const [name, value] of Object.entries(headers)) if (value) copy.headers.set(name, value);
		return copy;
	}
}

/** Adds the security headers to every response SvelteKit produces: pages, API, redirects, errors, 404s. */
const withSecurityHeaders: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	// Pages come back with SvelteKit's own policy holding this response's script nonce; keep that nonce and
	// replace the rest with the full policy built from configuration.
	const headers = securityHeaders(
		config,
		scriptSrcFrom(response.headers.get('content-security-policy')) ?? undefined,
		event.url.pathname
	);
	return withHeaders(response, headers);
};

/**
 * Pages and data gzipped as they stream, when the client accepts it — and for HEAD, the headers GET would carry.
 * The page cache's answers arrive already encoded (compressed once, Brotli or gzip:
 * src/lib/server/http/compression.ts) and pass through untouched.
 */
const compression: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	const head = event.request.method === 'HEAD';
	// `If-None-Match: *` asks whether the page exists at all (RFC 9110 §13.1.2): it does, so nothing is sent.
	if (
		response.status === 200 &&
		(head || event.request.method === 'GET') &&
		event.request.headers.get('if-none-match')?.trim() === '*'
	) {
		await response.body?.cancel();
		return new Response(null, { status: 304, headers: new Headers(notModifiedHeaders(response.headers)) });
	}
	const length = Number(response.headers.get('content-length') ?? Infinity);
	if (
		(!response.body && !head) ||
		response.headers.has('content-encoding') ||
		!isCompressible(response.headers.get('content-type')) ||
		length < MIN_COMPRESSIBLE_BYTES ||
		!accepts(event.request.headers.get('accept-encoding'), 'gzip')
	)
		return response;
	const headers = new Headers(response.headers);
	headers.set('content-encoding', 'gzip');
	headers.set('vary', varyOnEncoding(headers.get('vary')));
	headers.delete('content-length');
	// The gzipped page is a representation of its own, with a tag of its own; a client that holds it gets a 304.
	const etag = etagOf(headers.get('etag'), 'gzip');
	if (etag) {
		headers.set('etag', etag);
		if (response.status === 200 && noneMatch(event.request.headers.get('if-none-match'), etag)) {
			await response.body?.cancel();
			return new Response(null, { status: 304, headers: new Headers(notModifiedHeaders(headers)) });
		}
	}
	// HEAD says what GET would send, gzip included: the same headers, no body.
	if (head || !response.body) {
		await response.body?.cancel();
		return new Response(null, { status: response.status, statusText: response.statusText, headers });
	}
	return new Response(response.body.pipeThrough(new CompressionStream('gzip')), {
		status: response.status,
		statusText: response.statusText,
		headers
	});
};

/**
 * A declared body past its route's limit is refused before anything reads it. In production the server entry
 * has already done so (and counts chunked bodies too); this is the same rule under `vite dev`.
 */
const bodyLimits: Handle = async ({ event, resolve }) => {
	const limit = bodyLimit(event.request.method, event.url.pathname + event.url.search);
	const declared = declaredLength(event.request.headers.get('content-length'));
	if (declared === null || declared <= limit) return resolve(event);
	const answer = payloadTooLarge(limit);
	return new Response(answer.body, { status: answer.status, headers: answer.headers });
};

/**
 * Nothing private is kept by a browser's or a proxy's cache: every answer under the admin and member paths — their
 * redirects to /login included — every answer that sets a cookie, and every answer to a signed-in visitor is
 * `private, no-store`. Only a response its route declared `public` elsewhere (an image from the proxy, the same
 * bytes for everyone) keeps its own policy for a signed-in visitor; the anonymous public pages keep theirs too
 * (see pageCaching).
 */
const privateCaching: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	const declared = response.headers.get('cache-control') ?? '';
	const shared = /(?:^|,)\s*public\s*(?:,|$)/i.test(declared);
	// A member's course file (a video and its ranges) is kept by their own browser, never by a shared cache: its
	// route says `private, max-age=…` itself, and sets no cookie.
	const keptByTheBrowserOnly =
		/^\s*private\s*,\s*max-age=\d+\s*$/i.test(declared) && !response.headers.has('set-cookie');
	const isPrivate =
		!keptByTheBrowserOnly &&
		(isPrivatePath(event.url.pathname) ||
			response.headers.has('set-cookie') ||
			(event.locals.session !== null && !shared));
	return isPrivate ? withHeaders(response, { 'cache-control': 'private, no-store' }) : response;
};

/**
 * SITE_MODE (CONTRACT §2): a route of the other mode does not exist, and none of its handlers or loads runs. Pages
 * read over GET get the site's 404 page (the very answer of a path with no route); anything else (an API call, a
 * form action, a client-side navigation's data request) is refused here with a 404 problem.
 */
const PAGE_ROUTE_IDS = new Set(
	Object.keys(import.meta.glob('/src/routes/**/+page.svelte')).map(
		(file) => file.slice('/src/routes'.length, -'/+page.svelte'.length) || '/'
	)
);
const siteModeGate: Handle = async ({ event, resolve }) => {
	if (routeExistsIn(event.route.id, config.siteMode)) return resolve(event);
	const method = event.request.method;
	const page = PAGE_ROUTE_IDS.has(event.route.id ?? '');
	if (page && (method === 'GET' || method === 'HEAD') && !event.isDataRequest) return notFoundPage(event);
	return problem(404, 'Cette adresse n’existe pas sur ce site.');
};

/**
 * Exactly what a path without any route answers: the site's own 404 page, rendered in this mode's layout. Asked
 * for uncompressed, and answered without the sub-request's encoding and length: this response goes through the
 * compression of its own request (it used to carry the sub-request's `Content-Encoding: gzip` over a plain body,
 * which browsers and decoding clients could not read).
 */
async function notFoundPage(event: RequestEvent): Promise<Response> {
	const answer = await event.fetch(NO_SUCH_PATH, {
		headers: { accept: 'text/html', 'accept-encoding': 'identity' }
	});
	const body = await answer.arrayBuffer();
	const headers = new Headers(answer.headers);
	for (const name of ['content-encoding', 'content-length', 'vary', 'etag']) headers.delete(name);
	headers.set('cache-control', 'no-store');
	return new Response(event.request.method === 'HEAD' ? null : body, { status: 404, headers });
}
/** Matched by no route: its answer is the 404 page. */
const NO_SUCH_PATH = '/.page-introuvable';

/** Which pages the page cache keeps: the registry's in platform mode, the content index's in showcase mode. */
const pageCaching = createPageCaching({
	config,
	policy: (path) =>
		config.siteMode === 'showcase' ? showcase.freshMs(path) : registryPolicy(config.siteMode)(path)
});

/**
 * `?/default` names the action SvelteKit reserves for a form without a name: asked for by name, SvelteKit throws a
 * plain Error (a 500, its stack logged at `error`) whether or not the page has a default action. It is a client's
 * mistake — no page of ours sends it — and is answered so: 400, a line at `info` like every client error.
 */
const reservedActionName: Handle = ({ event, resolve }) => {
	// SvelteKit throws at any `/default` among the query's names (actions.js, call_action).
	if (event.request.method !== 'POST' || !event.url.searchParams.has('/default')) return resolve(event);
	log.info('client error', {
		method: 'POST',
		route: event.route.id,
		reason: 'reserved action name "default"'
	});
	return problem(400, 'Action de formulaire inconnue : envoyez le formulaire de la page.');
};

/** A write sent by another site's page is refused, whatever its body's type (http/same-origin.ts says why). */
const sameOriginWrites: Handle = ({ event, resolve }) => {
	if (!isForeignWrite(event.request, event.url.origin)) return resolve(event);
	log.info('client error', {
		method: event.request.method,
		route: event.route.id,
		reason: 'a write from another origin'
	});
	return problem(403, 'Requête refusée : elle vient d’un autre site.');
};

/**
 * Behind a proxy, ADDRESS_HEADER names the header that carries the visitor's address; a request without it (a
 * health check, a direct hit past the proxy, a proxy set up wrong) made adapter-node throw a plain Error wherever the
 * address was asked for — every form, a 500 with a stack. It is answered 400 instead, and said once in the log at
 * `warn`, naming the setting: the operator's cue. Requests that never ask for the address (/healthz, pages, images)
 * are answered as usual.
 */
let missingAddressHeaderSaid = false;
const clientAddressOrBadRequest: Handle = ({ event, resolve }) => {
	const header = config.clientAddress.header;
	if (!header) return resolve(event);
	const fromAdapter = event.getClientAddress.bind(event);
	event.getClientAddress = () => {
		try {
			return fromAdapter();
		} catch {
			if (!missingAddressHeaderSaid) {
				missingAddressHeaderSaid = true;
				log.warn('a request came without the address header that ADDRESS_HEADER names: answered 400', {
					setting: 'ADDRESS_HEADER',
					header,
					hint: 'does the reverse proxy set it on every request, and do clients reach the server past it?'
				});
			}
			error(400, 'Requête incomplète : l’adresse du visiteur manque (en-tête du proxy).');
		}
	};
	return resolve(event);
};

/** The database outages a page's load met (handleError notes them): answered as such once the page is rendered. */
const outagesMet = new WeakMap<Request, unknown>();

/**
 * A page whose load met an outage (the database out, its disk full, a statement cancelled by its time limit) is
 * answered 503 with Retry-After and the outage page — not SvelteKit's 500 page and an error with a stack in the log.
 */
const outagePages: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	if (response.status < 500 || !outagesMet.has(event.request)) return response;
	await response.body?.cancel();
	return outageAnswer(event, outagesMet.get(event.request));
};

export const handle: Handle = sequence(
	routeForTheLog,
	withSecurityHeaders,
	compression,
	bodyLimits,
	reservedActionName,
	sameOriginWrites,
	clientAddressOrBadRequest,
	siteModeGate,
	authenticate,
	outagePages,
	privateCaching,
	pageCaching
);

export const handleError: HandleServerError = ({ error, event, status, message }) => {
	if (status === 404) return { message: 'Page introuvable' };
	if (isDatabaseUnavailable(error)) {
		// Not a bug: outagePages answers 503; the log says it once (db/outage.ts), through outageAnswer.
		outagesMet.set(event.request, error);
		return { message: outageMessage(isDiskFull(error)) };
	}
	// The request's own id (server entry): the « Référence » shown to the visitor finds both log lines.
	const id = event.request.headers.get(REQUEST_ID_HEADER) ?? crypto.randomUUID();
	const where = { id, status, method: event.request.method, route: event.route.id };
	// A client's mistake (405, 415, a malformed URI…) is theirs, not a fault of ours: a line without a stack.
	if (status < 500) log.info('client error', { ...where, reason: message });
	else log.error('unhandled error', { ...where, error });
	return { message: status >= 500 ? withReference('Erreur interne du serveur', id) : message, id };
};
