/**
 * The insights domain's SQL, one reader a file: the daily counts (counts.ts), the day's visitors (visitors.ts),
 * the dashboard's figures (dashboard.ts), the course's learners (learners.ts).
 */
export * from './counts';
export * from './visitors';
export * from './dashboard';
export * from './learners';
