import { z } from 'zod';
import { lineText } from './text';

/** PUT /api/admin/site-images: a slot and its new value; `url: null` puts the slot back on its stock image. */
export const siteImageUpdateSchema = z.object({
	key: lineText('Indiquez la clé de l’image.').min(1, 'Indiquez la clé de l’image.').max(100),
	url: z.union(
		[
			lineText()
				.trim()
				.min(1, 'Indiquez une adresse ou une valeur storage:.')
				.max(2048, 'Adresse trop longue.'),
			z.null()
		],
		{
			error: 'Indiquez une adresse (https://…) ou une valeur storage:<chemin>.'
		}
	),
	/** What the photo shows; absent or empty: the slot's label. */
	alt: lineText().trim().max(250, 'Texte alternatif trop long (250 caractères au plus).').nullish()
});
