/**
 * The abuse domain's face: the counters every public form and secret check goes through (attempts.ts: a request
 * counted, an attempt spent before a secret is checked), the forms' anti-spam token, and the daily purge.
 */
export { countRequest, purgeExpiredCounters, rules, spendAttempt, tryLane } from './attempts';
export type { Lane, Limit, Rule, SecretRule } from './attempts';
export { checkFormToken, issueFormToken, spamReason, spendFormToken, type TokenVerdict } from './form-token';
