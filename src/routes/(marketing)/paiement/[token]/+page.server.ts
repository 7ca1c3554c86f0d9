import { error, redirect } from '@sveltejs/kit';
import * as candidatures from '$lib/server/candidatures';
import { AppError } from '$lib/server/errors';
import type { PageServerLoad } from './$types';

/**
 * The lasting payment link of an approved candidature: straight to its Checkout Session while it is open, else
 * to a fresh one. Enrolled → a page pointing to the sign-in; unknown, tampered, pending or rejected → 404.
 */
export const load: PageServerLoad = async ({ params }) => {
	let outcome: Awaited<ReturnType<typeof candidatures.checkoutForToken>>;
	try {
		outcome = await candidatures.checkoutForToken(params.token);
	} catch (failure) {
		if (failure instanceof AppError) error(failure.status, failure.message);
		throw failure;
	}
	if (outcome.kind === 'redirect') redirect(303, outcome.url);
	if (outcome.kind === 'not-found') error(404, 'Ce lien de paiement n’existe pas ou n’est plus valable.');
	return { state: outcome.kind };
};
