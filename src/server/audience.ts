/**
 * The server entry's side of the audience (src/lib/server/insights/audience.ts): every answer, cached page or
 * SvelteKit's, is offered to the process's tally (exposed by the app at start-up: http/audience-bridge.ts) once it
 * has been sent whole. The tally decides what counts; the
 * app writes the counts out. Counting never fails an answer: it runs after it, and its errors are logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../lib/server/config';
import { clientAddressOf } from '../lib/server/http/client-address';
import { exposedAudienceTally } from '../lib/server/http/audience-bridge';
import { log } from '../lib/server/log';

/**
 * What the server entry calls once each answer has been sent whole (request-log.ts `trackRequest`'s `afterAnswer`:
 * the listener the access log has already): the tally decides what counts. `fromPageCache` marks an answer of the
 * page cache, whose head was written in one call (`res.getHeader` does not see it): it stores HTML pages only.
 * Undefined when the audience is off.
 */
export function countEachAnswer(
	config: Config
): ((req: IncomingMessage, res: ServerResponse, fromPageCache: boolean) => void) | undefined {
	if (!config.analytics) return undefined;
	const ownHost = config.origin.hostname;
	return (req, res, fromPageCache) => {
		// What can never count is not looked at further: a POST, a HEAD, the assets.
		if (req.method !== 'GET' || req.url?.startsWith('/_app/')) return;
		const tally = exposedAudienceTally();
		if (!tally) return;
		try {
			tally.count(
				{
					method: req.method,
					url: req.url ?? '/',
					status: res.statusCode,
					contentType: fromPageCache ? 'text/html' : String(res.getHeader('content-type') ?? ''),
					headers: req.headers,
					address: clientAddressOf(req, config.clientAddress)
				},
				ownHost
			);
		} catch (error) {
			log.warn('visit not counted', { error });
		}
	};
}
