import { sql } from 'drizzle-orm';

/**
 * A visit's source, the one rule for the rollup and the leads: its `utm_source`, else the other site, named as people
 * name it (« Facebook » for `l.facebook.com` and `utm_source=fb`) by the database function that source-names.ts
 * compiles to; '' for direct. Over the columns of audience_daily, leads and candidatures alike.
 */
export const SOURCE = sql.raw(`atelier_source_name(utm_source, referrer_host)`);

// What SOURCE names before it names it — `utm_source`, else the other site, else '' — is what `leads_daily` keeps
// per lead (its raw_source, migration 0028): `atelier_source_name(raw_source, '')` is the lead's SOURCE.
