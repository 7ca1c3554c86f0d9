/**
 * Sessions as in the Lucia guide: the cookie holds a random token, the database holds only its SHA-256, so a
 * leaked sessions table opens no account. 30-day lifetime, extended when under 15 days remain.
 */
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import type { DbOrTx } from '../db';
import { describeDevice, describeNetwork } from './devices';
import * as queries from './queries';

const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
export const SESSION_RENEW_BELOW_MS = 15 * DAY_MS;

export interface SessionUser {
	id: string;
	email: string;
	name: string;
	isAdmin: boolean;
	/** Whether the account has a second factor (set on a session's user; ADMIN_2FA=required reads it). */
	twoFactor?: boolean;
	/**
	 * The account's latest membership, read in the session's own query (set on a session's user; null: none), so
	 * that a member's page asks nothing more to know who may read the courses (memberships.accessOf).
	 */
	membership?: SessionMembership | null;
}

/** An account's row as the session's user: who they are, and whether they administer. */
export const toSessionUser = (u: queries.User): SessionUser => ({
	id: u.id,
	email: u.email,
	name: u.name,
	isAdmin: u.isAdmin
});

export interface SessionMembership {
	status: string;
	currentPeriodEnd: Date | null;
	stripeCustomerId: string | null;
}

export interface ActiveSession {
	id: string;
	userId: string;
	expiresAt: Date;
	/** When the session last proved its user again (reauthentication.ts); null if never since sign-in. */
	reauthenticatedAt?: Date | null;
}

/** 20 random bytes (160 bits), base32: unguessable and cookie-safe. */
export function generateSessionToken(): string {
	const bytes = new Uint8Array(20);
	crypto.getRandomValues(bytes);
	return encodeBase32LowerCaseNoPadding(bytes);
}

export function sessionIdOf(token: string): string {
	return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** Where a sign-in came from, as the browser and the connection said (kept cut down: devices.ts). */
export interface SignInOrigin {
	userAgent?: string | null;
	address?: string | null;
}

/** "Last seen" is written at most this often: not a write on every request. */
export const LAST_SEEN_PRECISION_MS = 5 * 60 * 1000;

export type SessionValidation =
	| { session: ActiveSession; user: SessionUser; renewed: boolean }
	| { session: null; user: null; renewed: false };

/** Looks the token up; deletes it when expired, pushes the expiry back when under 15 days remain. */
export async function validateSessionToken(
	db: DbOrTx,
	token: string,
	now = new Date()
): Promise<SessionValidation> {
	const id = sessionIdOf(token);
	const row = await queries.sessionWithUser(db, id);
	if (!row) return { session: null, user: null, renewed: false };
	if (now.getTime() >= row.expiresAt.getTime()) {
		await queries.deleteSession(db, id);
		return { session: null, user: null, renewed: false };
	}
	const session: ActiveSession = {
		id: row.id,
		userId: row.userId,
		expiresAt: row.expiresAt,
		reauthenticatedAt: row.reauthenticatedAt
	};
	if (!row.lastSeenAt || now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_PRECISION_MS)
		await queries.setSessionLastSeen(db, id, now);
	let renewed = false;
	if (row.expiresAt.getTime() - now.getTime() < SESSION_RENEW_BELOW_MS) {
		session.expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
		await queries.setSessionExpiry(db, id, session.expiresAt);
		renewed = true;
	}
	return {
		session,
		user: {
			id: row.userId,
			email: row.email,
			name: row.name,
			isAdmin: row.isAdmin,
			twoFactor: row.twoFactorSince !== null,
			membership:
				row.membershipStatus === null
					? null
					: {
							status: row.membershipStatus,
							currentPeriodEnd: row.membershipPeriodEnd,
							stripeCustomerId: row.membershipCustomerId
						}
		},
		renewed
	};
}

export async function invalidateSession(db: DbOrTx, sessionId: string): Promise<void> {
	await queries.deleteSession(db, sessionId);
}

/** Signs the user out everywhere except the given session (after a password change). */
export async function invalidateOtherSessions(
	db: DbOrTx,
	userId: string,
	keepSessionId: string
): Promise<void> {
	await queries.deleteOtherSessions(db, userId, keepSessionId);
}

/** Sessions past their time, and the pending sign-ins and device links past theirs. */
export const purgeExpiredSessions = async (db: DbOrTx): Promise<number> =>
	(await queries.deleteExpiredSessions(db)) + (await queries.purgeExpiredSignInTokens(db, new Date()));

/**
 * How a page names a session without holding its id (the id is the token's hash: a page has no need of it, and
 * one leaked with the HTML would say nothing useful either, but a handle derived from it says even less).
 */
export const sessionHandleOf = (sessionId: string) =>
	encodeHexLowerCase(sha256(new TextEncoder().encode(`handle:${sessionId}`))).slice(0, 32);

export interface SessionView {
	handle: string;
	device: string;
	network: string;
	openedAt: Date;
	lastSeenAt: Date;
	current: boolean;
}

/** The user's open sessions as /profil lists them, the current one marked. */
export async function sessionsOf(
	db: DbOrTx,
	userId: string,
	currentSessionId: string | null,
	now = new Date()
): Promise<SessionView[]> {
	return (await queries.openSessionsOf(db, userId, now)).map((s) => ({
		handle: sessionHandleOf(s.id),
		device: describeDevice(s.userAgent),
		network: describeNetwork(s.network),
		openedAt: s.createdAt,
		lastSeenAt: s.lastSeenAt ?? s.createdAt,
		current: s.id === currentSessionId
	}));
}

/** Ends the user's session named by its handle; false when none of theirs has it (ended already, or not theirs). */
export async function endSessionByHandle(db: DbOrTx, userId: string, handle: string): Promise<boolean> {
	const theirs = await queries.openSessionsOf(db, userId, new Date(0));
	const session = theirs.find((s) => sessionHandleOf(s.id) === handle);
	return session ? queries.deleteSessionOf(db, userId, session.id) : false;
}
