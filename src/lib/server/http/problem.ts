/**
 * RFC 9457 problem details: the one error body of the HTTP API (CONTRACT §3). No SvelteKit import here: the server
 * entry writes problems too (a body past its limit, the webhook it answers) before SvelteKit is loaded.
 */

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
	/** Extension members (RFC 9457 §3.2), beside the standard ones (which they never replace). */
	members?: Record<string, unknown>;
}

/**
 * An answer as the parts to write (status, headers with the body's length, body): what the server entry writes
 * without a Response object. A problem is one.
 */
export interface AnswerParts {
	status: number;
	headers: Record<string, string>;
	body: string;
}

export function problemParts(status: number, detail: string, options: ProblemOptions = {}): AnswerParts {
	const fields: Record<string, unknown> = {
		...options.members,
		type: 'about:blank',
		title: options.title ?? titles[status] ?? 'Erreur',
		status,
		detail
	};
	if (options.errors) fields.errors = options.errors;
	const body = JSON.stringify(fields);
	return {
		status,
		headers: {
			'content-type': 'application/problem+json',
			'content-length': String(Buffer.byteLength(body)),
			...options.headers
		},
		body
	};
}

/** A failure of ours, named by the reference its log line carries (never by what went wrong). */
export const internalErrorParts = (reference: string): AnswerParts =>
	problemParts(500, `Erreur interne (référence ${reference}).`);

export function problem(status: number, detail: string, options: ProblemOptions = {}): Response {
	const parts = problemParts(status, detail, options);
	return new Response(parts.body, parts);
}
