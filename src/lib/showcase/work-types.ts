/** The kinds of work the réalisations gallery is filtered by (client-safe: the filter buttons use it). */
export const WORK_TYPES = [
	{ value: 'murs', label: 'Murs et clôtures' },
	{ value: 'facades', label: 'Façades' },
	{ value: 'terrasses', label: 'Terrasses' },
	{ value: 'ouvertures', label: 'Ouvertures et extensions' },
	{ value: 'renovation', label: 'Pierre et pisé' },
	{ value: 'maconnerie', label: 'Gros œuvre' }
] as const;

export type WorkType = (typeof WORK_TYPES)[number]['value'];
