/**
 * Where a lead or a candidature came from, in the words the admin reads (issue "Insights", point 2): the other
 * site and the campaign that brought the visitor, when the server saw them land that day; the page the form was
 * sent from. One place, for the inbox, the details and the candidatures.
 */
export interface RecordedOrigin {
	sourcePage: string | null;
	referrerHost: string | null;
	utmSource: string | null;
	utmMedium: string | null;
	utmCampaign: string | null;
}

/** « google.fr · campagne printemps (newsletter, e-mail) », or null when nothing is known of the visit. */
export function sourceOf(origin: RecordedOrigin): string | null {
	const campaign = origin.utmCampaign
		? `campagne ${origin.utmCampaign}` +
			(origin.utmSource || origin.utmMedium
				? ` (${[origin.utmSource, origin.utmMedium].filter(Boolean).join(', ')})`
				: '')
		: origin.utmSource
			? `source ${origin.utmSource}${origin.utmMedium ? ` (${origin.utmMedium})` : ''}`
			: null;
	const parts = [origin.referrerHost, campaign].filter(Boolean);
	return parts.length ? parts.join(' · ') : null;
}
