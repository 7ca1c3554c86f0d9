import type { LeadFilters } from './service';

const yesNo = (value: string | null) => (value === 'oui' ? true : value === 'non' ? false : undefined);
const date = (value: string | null, endOfDay = false) => {
	if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
	const parsed = new Date(`${value}T${endOfDay ? '23:59:59.999' : '00:00:00'}Z`);
	return Number.isNaN(parsed.getTime()) ? undefined : parsed;
};

/** The inbox filters from a query string (?type=devis&spam=non&traitee=non&du=2026-01-01&au=2026-01-31). */
export function filtersFrom(params: URLSearchParams): LeadFilters {
	const kind = params.get('type');
	return {
		kind: kind === 'contact' || kind === 'devis' ? kind : undefined,
		// Spam stays out of sight unless asked for.
		spam: params.get('spam') === 'tous' ? undefined : (yesNo(params.get('spam')) ?? false),
		handled: yesNo(params.get('traitee')),
		from: date(params.get('du')),
		to: date(params.get('au'), true)
	};
}
