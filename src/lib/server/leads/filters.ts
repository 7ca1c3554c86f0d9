import type { LeadFiltersQuery } from '$lib/schemas/leads';
import type { LeadFilters } from './service';

const yesNo = (value: 'oui' | 'non' | undefined) => (value === undefined ? undefined : value === 'oui');

/** The inbox filters from their parsed query (leadFiltersQuerySchema): dates are whole days, UTC. */
export function filtersOf(query: LeadFiltersQuery): LeadFilters {
	return {
		kind: query.type,
		// Spam stays out of sight unless asked for.
		spam: query.spam === 'tous' ? undefined : query.spam === 'oui',
		handled: yesNo(query.traitee),
		from: query.du ? new Date(`${query.du}T00:00:00Z`) : undefined,
		to: query.au ? new Date(`${query.au}T23:59:59.999Z`) : undefined
	};
}
