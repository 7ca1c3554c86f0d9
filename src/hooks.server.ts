import type { Handle, HandleServerError, ServerInit } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import * as auth from '$lib/server/auth';
import { config } from '$lib/server/config';
import { database, db } from '$lib/server/db';
import { scriptSrcFrom, securityHeaders } from '$lib/server/http/security-headers';
import { log } from '$lib/server/log';
import { startMaintenance } from '$lib/server/maintenance';
import { exposePageCache, handle as pageCaching, startPurgeListener } from '$lib/server/pages/cache';

export const init: ServerInit = async () => {
	await database.migrate();
	log.info('database ready', { driver: database.driver });
	startMaintenance();
	await startPurgeListener(database.pg);
	exposePageCache();
};

/** Reads the session cookie into locals.user / locals.session; renews the cookie with the session. */
const authenticate: Handle = async ({ event, resolve }) => {
	event.locals.user = null;
	event.locals.session = null;
	const token = event.cookies.get(auth.sessionCookieName(config.origin));
	if (token) {
		const result = await auth.validateSessionToken(db, token);
		if (result.session) {
			event.locals.user = result.user;
			event.locals.session = result.session;
			if (result.renewed)
				auth.setSessionCookie(event.cookies, config.origin, token, result.session.expiresAt);
		} else {
			auth.deleteSessionCookie(event.cookies, config.origin);
		}
	}
	return resolve(event);
};

/** Adds the security headers to every response SvelteKit produces: pages, API, redirects, errors, 404s. */
const withSecurityHeaders: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	// Pages come back with SvelteKit's own policy holding this response's script nonce; keep that nonce and
	// replace the rest with the full policy built from configuration.
	const headers = securityHeaders(
		config,
		scriptSrcFrom(response.headers.get('content-security-policy')) ?? undefined
	);
	try {
		for (const [name, value] of Object.entries(headers)) if (value) response.headers.set(name, value);
		return response;
	} catch {
		// A response passed through from fetch() has immutable headers: copy it.
		const copy = new Response(response.body, response);
		for (const [name, value] of Object.entries(headers)) if (value) copy.headers.set(name, value);
		return copy;
	}
};

export const handle: Handle = sequence(withSecurityHeaders, authenticate, pageCaching);

export const handleError: HandleServerError = ({ error, event, status, message }) => {
	if (status === 404) return { message: 'Page introuvable' };
	const id = crypto.randomUUID();
	log.error('unhandled error', { id, status, method: event.request.method, path: event.url.pathname, error });
	return { message: status >= 500 ? 'Erreur interne du serveur' : message, id };
};
