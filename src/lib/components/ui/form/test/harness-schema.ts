import { z } from 'zod';

export const harnessSchema = z.object({
	email: z.email('Adresse e-mail invalide.'),
	level: z.enum(['debutant', 'confirme']),
	motivation: z.string().min(10, 'Dites-nous en un peu plus.'),
	format: z.enum(['debutant', 'confirme'], { error: 'Choisissez un format.' }),
	consent: z.literal(true, { error: 'Vous devez accepter les conditions.' })
});
export type HarnessData = z.infer<typeof harnessSchema>;
