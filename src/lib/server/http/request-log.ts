/**
 * One line per request (docs/operations.md, "What the log says"): method, route, status, duration and request id
 * — never the query string (tokens ride in some), the client's address or anything else about the person. The id
 * goes back in `X-Request-Id` and on error pages, so that a visitor's "Référence" finds its line.
 *
 * The server entry sees every request and its end; only SvelteKit knows which route answered. They are two bundles
 * in one process (process-wide.js), so the route is handed over through a process-wide registry, keyed by id.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { log } from '../log';
import { recordRequest } from '../metrics';
import { processWide } from '../../process-wide';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A proxy in front may give its own id (Caddy, Traefik, a load balancer); anything else is replaced. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestIdOf(given: string | string[] | undefined): string {
	return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
}

const routes = processWide<Map<string, string | null>>('request-routes').ensure(() => new Map());

/** Called by SvelteKit's hook: the route that answers this request (null: none matched). */
export function recordRoute(requestId: string | null, routeId: string | null): void {
	if (requestId) routes.set(requestId, routeId);
}

/** Paths probed every few seconds (health checks, Prometheus' scrape): logged at debug only, or they would drown the rest. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Gives the request its id (on the request's headers, for SvelteKit) and logs its line when the response is done or
 * the client went away. The caller puts `id` on the response: the page cache in the head it writes in one call,
 * anything else with setHeader. `answeredBy` names what answered when SvelteKit never saw the request (the page
 * cache); otherwise that is SvelteKit's route, or adapter-node's static files. `afterAnswer`, when given, is called in
 * the same listener once an answer was sent whole (the audience counts it there): one listener a request, not two.
 */
export function trackRequest(
	req: IncomingMessage,
	res: ServerResponse,
	afterAnswer?: (req: IncomingMessage, res: ServerResponse, fromPageCache: boolean) => void
): { id: string; answeredBy(label: string): void } {
	let answeredBy: string | null = null;
	const id = requestIdOf(req.headers[REQUEST_ID_HEADER]);
	req.headers[REQUEST_ID_HEADER] = id;
	const started = performance.now();
	// `on`, not `once`: a response closes once, and `once` wraps the listener in another function per request.
	res.on('close', () => {
		const recorded = routes.has(id);
		const route = recorded ? (routes.get(id) ?? '(no route)') : (answeredBy ?? '(static)');
		if (recorded) routes.delete(id);
		const ms = performance.now() - started;
		const finished = res.writableFinished;
		recordRequest(req.method, route, res.statusCode, ms / 1000);
		const line = {
			method: req.method ?? '',
			route,
			status: res.statusCode,
			ms: Math.round(ms * 10) / 10,
			id,
			aborted: !finished
		};
		if (PROBES.has(pathOf(req.url)) && res.statusCode < 400) log.request('debug', line);
		else log.request('info', line);
		if (finished && afterAnswer) afterAnswer(req, res, answeredBy === PAGE_CACHE);
	});
	return { id, answeredBy: (label) => (answeredBy = label) };
}

/** What answers a page from the page cache, before SvelteKit (the server entry's fast path). */
export const PAGE_CACHE = '(page cache)';

const pathOf = (url: string | undefined) => {
	if (!url) return '';
	const query = url.indexOf('?');
	return query === -1 ? url : url.slice(0, query);
};
