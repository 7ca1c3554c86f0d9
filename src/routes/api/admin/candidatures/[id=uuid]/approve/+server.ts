import { json } from '@sveltejs/kit';
import * as candidatures from '$lib/server/candidatures';
import { api } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/** CONTRACT §3: 200 { status, checkoutUrl, paymentLink, emailSent, emailError, paymentError }; 409 unless pending. */
export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	return json(await candidatures.approve(event.params.id!, admin));
});
