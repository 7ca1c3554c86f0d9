/** Query-string parameters: a value that does not parse is dropped (the page shows everything), never an error. */
import type { z } from 'zod';

export const dropInvalid = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The admin lists' « Du » / « Au » (ISO days, already parsed) as a range of instants: from the start of the first
 * day, up to (not including) the start of the day after the last, so that « au 12 mars » includes the 12th. UTC.
 */
export function dayRange(du: string | undefined, au: string | undefined): { from?: Date; to?: Date } {
	return {
		from: du ? new Date(`${du}T00:00:00Z`) : undefined,
		to: au ? new Date(new Date(`${au}T00:00:00Z`).getTime() + DAY_MS) : undefined
	};
}
