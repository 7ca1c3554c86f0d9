import { sql } from 'drizzle-orm';

/**
 * A visit's source, the one rule for the rollup and the leads: its `utm_source`, else the other site, named as people
 * name it (« Facebook » for `l.facebook.com` and `utm_source=fb`) by the database function that source-names.ts
 * compiles to; '' for direct. Over the columns of audience_daily, leads and candidatures alike.
 */
export const SOURCE = sql.raw(`atelier_source_name(utm_source, referrer_host)`);

/**
 * What SOURCE names, before it is named (the function's own first step): `utm_source`, else the other site, else ''.
 * `atelier_source_name(raw, '')` is SOURCE: a query that groups many rows groups by this first, and names each group.
 */
export const RAW_SOURCE = sql.raw(`coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), '')`);
