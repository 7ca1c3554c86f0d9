import { z } from 'zod';

const key = z.string({ error: 'Indiquez la clé de l’image.' }).min(1, 'Indiquez la clé de l’image.').max(100);

/** PUT /api/admin/site-images: a slot and its new value; `url: null` puts the slot back on its stock image. */
export const siteImageUpdateSchema = z.object({
	key,
	url: z.union(
		[
			z
				.string()
				.trim()
				.min(1, 'Indiquez une adresse ou une valeur storage:.')
				.max(2048, 'Adresse trop longue.'),
			z.null()
		],
		{
			error: 'Indiquez une adresse (https://…) ou une valeur storage:<chemin>.'
		}
	)
});

/** The admin images page's forms (no JavaScript needed): a slot… */
export const siteImageKeySchema = z.object({ key });

/** …and an external address for it. */
export const siteImageUrlSchema = z.object({
	key,
	url: z
		.string({ error: 'Indiquez une adresse d’image.' })
		.trim()
		.min(1, 'Indiquez une adresse d’image.')
		.max(2048, 'Adresse trop longue.')
});
