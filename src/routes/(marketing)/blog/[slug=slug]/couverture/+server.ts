import type { RequestHandler } from '@sveltejs/kit';
import { IMAGE_WIDTHS, isImageWidth } from '$lib/images';
import * as content from '$lib/server/content';
import { problem } from '$lib/server/http/problem';
import * as images from '$lib/server/images';

/** An article's cover photo, through the image pipeline (`?w=` one of the widths pages offer, as /api/img). */
const serve: RequestHandler = async ({ params, request, url, locals }) => {
	const w = url.searchParams.get('w');
	const width = w === null ? null : Number(w);
	if (width !== null && !(/^\d+$/.test(w!) && isImageWidth(width)))
		return problem(400, `Largeur d’image refusée : « w » vaut ${IMAGE_WIDTHS.join(', ')} ou rien.`);
	const value = await content.coverOf(params.slug!, content.isPreview(url, locals.user));
	const answer =
		value === null
			? null
			: images.serveCover(value, {
					ifNoneMatch: request.headers.get('if-none-match'),
					head: request.method === 'HEAD',
					width,
					version: url.searchParams.get('v')
				});
	return (await answer) ?? problem(404, 'Cet article n’a pas de photo de couverture.');
};

export const GET = serve;
export const HEAD = serve;
