/**
 * The answer while the database cannot be reached (issue "Durable and upgradable", point 5), for any request that
 * needs it — a signed-in visitor's included, whose session cannot be read: 503 with Retry-After, as problem details
 * for the API and as a short page for browsers. Never a 500, never a stack: an outage is not a bug. The log says it
 * once (db/outage.ts).
 */
import type { RequestEvent } from '@sveltejs/kit';
import { isDiskFull, OUTAGE_RETRY_AFTER_SECONDS } from '../db/unavailable';
import { problemFor } from './api';

const outagePage = (diskFull: boolean) => `<!doctype html>
<html lang="fr">
	<head>
		<meta charset="utf-8" />
		<meta name="viewport" content="width=device-width, initial-scale=1" />
		<meta name="robots" content="noindex" />
		<title>Service momentanément indisponible</title>
	</head>
	<body style="font-family: system-ui, sans-serif; margin: 0 auto; max-width: 34rem; padding: 2rem 1.5rem; color: #1f2a37">
		<h1>Service momentanément indisponible</h1>
		<p>${
			diskFull
				? 'Le site ne peut rien enregistrer pour l’instant (espace disque plein). Réessayez plus tard : rien de ce que vous aviez enregistré n’est perdu.'
				: 'Le site ne peut pas lire ses données pour l’instant. Réessayez dans quelques instants : rien de ce que vous aviez enregistré n’est perdu.'
		}</p>
		<p><a href="/" style="color: #8a4b08">Retour à l’accueil</a></p>
	</body>
</html>
`;

export function outageAnswer(event: Pick<RequestEvent, 'request' | 'url'>, error: unknown): Response {
	const request = { method: event.request.method, path: event.url.pathname };
	const wantsPage =
		!event.url.pathname.startsWith('/api/') &&
		(event.request.headers.get('accept') ?? '').includes('text/html');
	// problemFor logs the loss (once) and answers 503 with Retry-After.
	const problem = problemFor(error, request);
	if (!wantsPage) return problem;
	return new Response(outagePage(isDiskFull(error)), {
		status: 503,
		headers: {
			'content-type': 'text/html; charset=utf-8',
			'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS),
			'cache-control': 'no-store'
		}
	});
}
