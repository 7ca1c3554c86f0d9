/** The admin images page's form actions (no JavaScript): which slot, and its new external URL. Client-safe. */
import { z } from 'zod';
import { lineText } from './text';

export const slotKeySchema = z.object({
	key: lineText('Indiquez la clé de l’image.').min(1, 'Indiquez la clé de l’image.').max(100)
});

export const slotUrlSchema = slotKeySchema.extend({
	url: lineText('Indiquez une adresse.').trim().min(1, 'Indiquez une adresse (https://…).').max(2048),
	alt: lineText().trim().max(250, 'Texte alternatif trop long (250 caractères au plus).').optional()
});
