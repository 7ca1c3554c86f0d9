/** Query-string parameters: a value that does not parse is dropped (the page shows everything), never an error. */
import type { z } from 'zod';

export const dropInvalid = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
