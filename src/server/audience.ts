/**
 * The server entry's side of the audience (src/lib/server/insights/audience.ts): every answer, cached page or
 * SvelteKit's, is offered to the process's tally once it has been sent whole. The tally decides what counts; the
 * app writes the counts out. Counting never fails an answer: it runs after it, and its errors are logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../lib/server/config';
import { clientAddressOf } from '../lib/server/http/client-address';
import { audienceTally } from '../lib/server/insights/audience';
import { log } from '../lib/server/log';

/**
 * `track` offers every answer to the tally once sent; `cached` marks one the page cache answered, whose head was
 * written in one call (`res.getHeader` does not see it): the page cache stores HTML pages only.
 */
export function countEachAnswer(config: Config): {
	track(req: IncomingMessage, res: ServerResponse): void;
	cached(res: ServerResponse): void;
} {
	if (!config.analytics) return { track: () => {}, cached: () => {} };
	const tally = audienceTally();
	const ownHost = config.origin.hostname;
	const fromCache = new WeakSet<ServerResponse>();
	return {
		cached: (res) => void fromCache.add(res),
		track: (req, res) => {
			// What can never count is not followed to its end: a POST, a HEAD, the assets.
			if (req.method !== 'GET' || req.url?.startsWith('/_app/')) return;
			res.once('finish', () => {
				try {
					tally.count(
						{
							method: req.method ?? '',
							url: req.url ?? '/',
							status: res.statusCode,
							contentType: fromCache.has(res) ? 'text/html' : String(res.getHeader('content-type') ?? ''),
							headers: req.headers,
							address: clientAddressOf(req, config.clientAddress)
						},
						ownHost
					);
				} catch (error) {
					log.warn('visit not counted', { error });
				}
			});
		}
	};
}
