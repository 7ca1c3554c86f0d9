import { describe, expect, it } from 'vitest';
import { refusalText, serverError } from './messages';

describe('what a form says when its action answered with an error', () => {
	it('gives the server’s own words for a refusal, whatever its status', () => {
		const words = 'Confirmez d’abord votre identité : la révocation le demande (dix minutes).';
		for (const status of [400, 403, 409, 413, 415, 422, 429])
			expect(refusalText(status, { message: words })).toBe(words);
		// A 4xx SvelteKit logged with a reference (an odd method, a malformed URI) still says what it said.
		expect(refusalText(405, { message: 'Méthode refusée', id: 'abc' })).toBe('Méthode refusée');
	});

	it('gives an outage’s message (it has no reference), and a reference for a failure of ours', () => {
		const outage = 'Le service est momentanément indisponible.';
		expect(refusalText(503, { message: outage })).toBe(outage);
		expect(refusalText(500, { message: 'Erreur interne du serveur (référence r-1)', id: 'r-1' })).toBe(
			serverError('r-1')
		);
		expect(refusalText(undefined, undefined)).toBe(serverError());
		expect(refusalText(400, { message: '  ' })).toBe(serverError());
	});
});
