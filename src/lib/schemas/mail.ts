/** The admin's e-mail preview options. Client-safe. */
import { z } from 'zod';

export const mailPreviewQuerySchema = z.object({
	theme: z.enum(['light', 'dark']).catch('light')
});
