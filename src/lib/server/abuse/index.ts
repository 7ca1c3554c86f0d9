/**
 * The abuse domain as the rest of the server sees it from outside the domains (maintenance): the daily purge of
 * the counters. Domains that check secrets or count requests use attempts.ts itself (CONTRIBUTING.md).
 */
export { purgeExpiredCounters } from './attempts';
