/** The admin list's query string, parsed by its schema, as the filters the queries take. */
import type { z } from 'zod';
import type { candidatureFiltersQuerySchema } from '$lib/schemas/candidature';
import { dayRange } from '$lib/schemas/query';
import type { CandidatureFilters } from './queries';

export function filtersOf(query: z.output<typeof candidatureFiltersQuerySchema>): CandidatureFilters {
	return {
		status: query.statut,
		trade: query.metier,
		search: query.q || undefined,
		...dayRange(query.du, query.au)
	};
}
