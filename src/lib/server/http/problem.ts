/** RFC 9457 problem details: the one error body of the HTTP API (CONTRACT §3). */
import { json } from '@sveltejs/kit';

const titles: Record<number, string> = {
	400: 'Requête invalide',
	401: 'Connexion requise',
	403: 'Accès refusé',
	404: 'Introuvable',
	409: 'Conflit',
	413: 'Contenu trop volumineux',
	415: 'Type de contenu non pris en charge',
	422: 'Contenu illisible',
	429: 'Trop de requêtes',
	500: 'Erreur interne',
	503: 'Service indisponible'
};

export interface ProblemOptions {
	/** Field → messages, for validation errors only. */
	errors?: Record<string, string[]>;
	headers?: Record<string, string>;
	title?: string;
}

export function problem(status: number, detail: string, options: ProblemOptions = {}): Response {
	const body: Record<string, unknown> = {
		type: 'about:blank',
		title: options.title ?? titles[status] ?? 'Erreur',
		status,
		detail
	};
	if (options.errors) body.errors = options.errors;
	return json(body, {
		status,
		headers: { 'content-type': 'application/problem+json', ...options.headers }
	});
}
