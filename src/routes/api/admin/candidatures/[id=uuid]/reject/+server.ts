import { json } from '@sveltejs/kit';
import { rejectionSchema } from '$lib/schemas/candidature';
import * as candidatures from '$lib/server/candidatures';
import { api, readJson } from '$lib/server/http/api';
import { requireAdmin } from '$lib/server/http/guards';

/** CONTRACT §3: `{ reason? }` (an empty body is no reason) → 200 { status, emailSent, emailError }; 409 unless pending. */
export const POST = api(async (event) => {
	const admin = await requireAdmin(event);
	const hasBody =
		Number(event.request.headers.get('content-length') ?? 0) > 0 ||
		event.request.headers.has('transfer-encoding');
	const { reason } = hasBody ? await readJson(event, rejectionSchema) : { reason: undefined };
	return json(await candidatures.reject(event.params.id!, admin, reason));
});
