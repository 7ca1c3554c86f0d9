import { sql } from 'drizzle-orm';

/**
 * A visit's source, the one rule for the rollup and the leads: the other site, else the campaign's utm_source,
 * else '' (direct). Over the columns of audience_daily, leads and candidatures alike.
 */
export const SOURCE = sql.raw(`coalesce(nullif(referrer_host, ''), nullif(utm_source, ''), '')`);
