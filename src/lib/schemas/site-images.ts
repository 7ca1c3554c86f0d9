import { z } from 'zod';
import { textField } from './text';

/** PUT /api/admin/site-images: a slot and its new value; `url: null` puts the slot back on its stock image. */
export const siteImageUpdateSchema = z.object({
	key: textField({ error: 'Indiquez la clé de l’image.' }).min(1, 'Indiquez la clé de l’image.').max(100),
	url: textField({ error: 'Indiquez une adresse (https://…) ou une valeur storage:<chemin>.' })
		.trim()
		.min(1, 'Indiquez une adresse ou une valeur storage:.')
		.max(2048, 'Adresse trop longue.')
		.nullable()
});
