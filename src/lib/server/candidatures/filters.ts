/** The admin list's query string, parsed by its schema, as the filters the queries take. */
import type { z } from 'zod';
import type { candidatureFiltersQuerySchema } from '$lib/schemas/candidature';
import type { CandidatureFilters } from './queries';

const DAY_MS = 24 * 60 * 60 * 1000;

export function filtersOf(query: z.output<typeof candidatureFiltersQuerySchema>): CandidatureFilters {
	return {
		status: query.statut,
		trade: query.metier,
		search: query.q || undefined,
		from: query.du ? new Date(`${query.du}T00:00:00Z`) : undefined,
		// "au 12 mars" includes the 12th.
		to: query.au ? new Date(new Date(`${query.au}T00:00:00Z`).getTime() + DAY_MS) : undefined
	};
}
