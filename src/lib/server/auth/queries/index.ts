/**
 * The accounts domain's SQL, and nothing else, one file a table or two: each function takes the database or a
 * transaction. What writes a session row (session-rows.ts) and what spends or writes a recovery code
 * (recovery-codes.ts) are files of their own, each importable by its one owner only (scripts/boundaries.js).
 */
export type { User } from '../../db/schema';
export * from './users';
export * from './sessions';
export * from './sign-in-tokens';
export * from './second-factor';
