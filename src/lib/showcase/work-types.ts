import { optionsOf } from '$lib/options';

/** The kinds of work the réalisations gallery is filtered by (client-safe: the filter buttons use it). */
export const WORK_TYPES = optionsOf({
	murs: 'Murs et clôtures',
	facades: 'Façades',
	terrasses: 'Terrasses',
	ouvertures: 'Ouvertures et extensions',
	renovation: 'Pierre et pisé',
	maconnerie: 'Gros œuvre'
});

export type WorkType = (typeof WORK_TYPES)[number]['value'];
