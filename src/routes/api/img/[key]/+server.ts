import type { RequestHandler } from '@sveltejs/kit';
import { IMAGE_WIDTHS, isImageWidth } from '$lib/images';
import { problem } from '$lib/server/http/problem';
import * as images from '$lib/server/images';

const serve: RequestHandler = async ({ params, request, url }) => {
	const key = params.key ?? '';
	// `?w=` picks one of the widths pages offer in srcset; any other value is refused rather than resized on demand.
	const w = url.searchParams.get('w');
	const width = w === null ? null : Number(w);
	if (width !== null && !(/^\d+$/.test(w!) && isImageWidth(width)))
		return problem(400, `Largeur d’image refusée : « w » vaut ${IMAGE_WIDTHS.join(', ')} ou rien.`);
	const response = await images.serve(key, {
		ifNoneMatch: request.headers.get('if-none-match'),
		head: request.method === 'HEAD',
		width,
		version: url.searchParams.get('v')
	});
	return response ?? problem(404, `Aucune image ne porte la clé « ${key} ».`);
};

export const GET = serve;
export const HEAD = serve;
