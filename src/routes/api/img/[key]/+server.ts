import type { RequestHandler } from '@sveltejs/kit';
import { config } from '$lib/server/config';
import { db } from '$lib/server/db';
import { problem } from '$lib/server/http/problem';
import * as images from '$lib/server/images';
import { storage } from '$lib/server/storage';

const serve: RequestHandler = async ({ params, request }) => {
	const slot = images.slotOf(params.key ?? '');
	if (!slot) return problem(404, `Aucune image ne porte la clé « ${params.key} ».`);
	return images.serveSiteImage({ db, storage, config }, slot, {
		ifNoneMatch: request.headers.get('if-none-match'),
		head: request.method === 'HEAD'
	});
};

export const GET = serve;
export const HEAD = serve;
