import type { LeadFiltersQuery } from '$lib/schemas/leads';
import { dayRange } from '$lib/schemas/query';
import type { LeadCursor, LeadFilters } from './queries';

/** The inbox's tabs, as `?onglet=` spells them. */
export type InboxTab = 'a-traiter' | 'traitees' | 'spam' | 'toutes';

const yesNo = (value: 'oui' | 'non' | undefined) => (value === undefined ? undefined : value === 'oui');

/** The inbox filters from their parsed query (leadFiltersQuerySchema): dates are whole days, UTC. */
export function filtersOf(query: LeadFiltersQuery): LeadFilters {
	return {
		kind: query.type,
		// Spam stays out of sight unless asked for.
		spam: query.spam === 'tous' ? undefined : query.spam === 'oui',
		handled: yesNo(query.traitee),
		notifyFailed: query.notification === 'echec' || undefined,
		...dayRange(query.du, query.au)
	};
}

/**
 * The inbox tab a query asks for: `?onglet=`, or what the older `?spam=`/`?traitee=` links meant; "à traiter"
 * by default, the work waiting.
 */
export function tabOf(query: LeadFiltersQuery): InboxTab {
	if (query.onglet) return query.onglet;
	if (query.spam === 'oui') return 'spam';
	if (query.spam === 'tous') return 'toutes';
	if (query.traitee === 'oui') return 'traitees';
	return 'a-traiter';
}

export const TAB_FILTERS: Record<InboxTab, Pick<LeadFilters, 'spam' | 'handled'>> = {
	'a-traiter': { spam: false, handled: false },
	traitees: { spam: false, handled: true },
	spam: { spam: true },
	toutes: {}
};

/** What the inbox shows for a query (its tab within the type and date filters): also what its CSV exports. */
export function inboxFilters(query: LeadFiltersQuery): LeadFilters {
	const { kind, from, to, notifyFailed } = filtersOf(query);
	return { kind, from, to, notifyFailed, ...TAB_FILTERS[tabOf(query)] };
}

/**
 * Where a page of the inbox starts: the newest leads (null), the leads `older` or `newer` than a lead's cursor
 * (the links « Plus anciennes », « Plus récentes »), or the `oldest` ones.
 */
export type InboxPosition = { older: LeadCursor } | { newer: LeadCursor } | { oldest: true } | null;

/** A cursor as the inbox's links write it (`2026-03-01T08:00:00.000123Z_<id>`, leadFiltersQuerySchema). */
export const cursorParam = (cursor: LeadCursor) => `${cursor.at}_${cursor.id}`;

function cursorOf(param: string): LeadCursor {
	const cut = param.indexOf('_');
	return { at: param.slice(0, cut), id: param.slice(cut + 1) };
}

/** Where the page a query asks for starts (leads/service.ts `InboxPosition`): the newest leads by default. */
export function positionOf(query: LeadFiltersQuery): InboxPosition {
	if (query.avant) return { older: cursorOf(query.avant) };
	if (query.apres) return { newer: cursorOf(query.apres) };
	if (query.fin) return { oldest: true };
	return null;
}
