/** Shared by the social cards (client-safe). */
import { company } from '$content/agency/company';

/** What the site's own card (static/og-atelier.png) shows, for who cannot see it: og:image:alt. */
export const SITE_CARD_ALT = `${company.brand} — ${company.tagline}`;
