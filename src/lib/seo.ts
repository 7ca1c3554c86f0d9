/** Shared by the social cards (client-safe). */
import { company } from '$lib/company';

/** What the site's own card (static/og-atelier.png) shows, for who cannot see it: og:image:alt. */
export const siteCardAlt = () => `${company.brand} — ${company.tagline}`;
