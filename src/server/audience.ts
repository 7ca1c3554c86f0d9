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

export function countEachAnswer(config: Config): (req: IncomingMessage, res: ServerResponse) => void {
	if (!config.analytics) return () => {};
	const tally = audienceTally();
	const ownHost = config.origin.hostname;
	return (req, res) =>
		res.once('finish', () => {
			try {
				tally.count(
					{
						method: req.method ?? '',
						url: req.url ?? '/',
						status: res.statusCode,
						contentType: String(res.getHeader('content-type') ?? ''),
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
