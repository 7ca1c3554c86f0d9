import type { RequestHandler } from '@sveltejs/kit';
import { problem } from '$lib/server/http/problem';
import * as images from '$lib/server/images';

const serve: RequestHandler = async ({ params, request }) => {
	const key = params.key ?? '';
	const response = await images.serve(key, {
		ifNoneMatch: request.headers.get('if-none-match'),
		head: request.method === 'HEAD'
	});
	return response ?? problem(404, `Aucune image ne porte la clé « ${key} ».`);
};

export const GET = serve;
export const HEAD = serve;
