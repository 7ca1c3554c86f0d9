/**
 * Signing in (SEED part 5; issues "Trust" and "Trust, part 2"): the password, then the code when the account has a
 * second factor, each attempt spent before it is checked in the lane of whoever asks (abuse/attempts.ts); and the
 * way in for the owner of an account that strangers keep slowed down: a link that makes a browser known.
 */
import { randomBytes } from 'node:crypto';
import { countRequest, rules, spendAttempt, tryLane, type Lane, type Limit } from '../abuse';
import type { Db, DbOrTx } from '../db';
import { AppError, RateLimitedError } from '../errors';
import { deviceNonceFor, madeByLink } from './device';
import { spendOneHash, verifyPassword } from './password-check';
import { issuePendingSignIn, pendingUserOf, spendPendingSignIn } from './pending-sign-in';
import * as queries from './queries';
import { tokenHash } from './tokens';
import { toSessionUser, type SessionUser } from './session';
import { codeLanes, verifySecondFactor, type VerifiedCode } from './two-factor';

/** Wrong e-mail or password: deliberately the same answer for both. */
export class InvalidCredentialsError extends AppError {
	constructor() {
		super(400, 'Adresse e-mail ou mot de passe incorrect.');
	}
}

/** The pending sign-in is gone (used, expired, ended by a password change): the password is asked again. */
export class PendingSignInEndedError extends AppError {
	constructor() {
		super(410, 'Cette connexion a expiré : saisissez de nouveau votre mot de passe.');
	}
}

/** The browser's device cookie and the secret that signed it (device.ts). */
export interface DeviceCheck {
	secret: string;
	token: string | undefined;
}

const strangersLanes = (account: string, address: string): Lane[] => [
	{ rule: rules.signInAddress, subject: address },
	{ rule: rules.signInAccount, subject: account }
];

/** The nonce of this browser's device cookie for the account, when it is one this site signed and did not revoke. */
const knownDeviceNonce = (
	device: DeviceCheck | undefined,
	account: string,
	user: queries.User | undefined
) => (device ? deviceNonceFor(device.secret, device.token, account, user?.devicesRevokedAt ?? null) : null);

/**
 * Checks the e-mail and password. A browser the account knows spends its own budget (10 wrong in 15 minutes) and
 * neither the account's slow-down nor its address's limit: what strangers do cannot keep it out. Anyone else spends
 * a place of their address and of the account's slowed lane before the password is hashed, whether the account
 * exists or not (the same answers either way).
 */
export async function signIn(
	db: Db,
	email: string,
	password: string,
	address: string,
	device?: DeviceCheck
): Promise<{ user: SessionUser; knownDevice: boolean }> {
	const account = email.trim().toLowerCase();
	const user = await queries.userByEmail(db, account);
	const nonce = knownDeviceNonce(device, account, user);
	const deviceLane: Lane | null = nonce ? { rule: rules.signInDevice, subject: nonce } : null;
	// A known browser that spent its own budget is a stranger again until its window ends.
	const knownDevice = deviceLane !== null && (await tryLane(db, deviceLane)) === null;
	const signedIn = await spendAttempt(
		db,
		knownDevice ? [] : strangersLanes(account, address),
		async () => {
			const valid = user
				? await verifyPassword(user.passwordHash, password)
				: (await spendOneHash(password), false);
			if (!user || !valid) throw new InvalidCredentialsError();
			return toSessionUser(user);
		},
		knownDevice ? [deviceLane!] : []
	);
	return { user: signedIn, knownDevice };
}

/** The password was right and the account has a second factor: the token of the code step. */
export const beginSecondFactor = (db: DbOrTx, userId: string) => issuePendingSignIn(db, userId);

export const pendingSignInUser = (db: DbOrTx, token: string | undefined) => pendingUserOf(db, token);

/**
 * The code step: the code is checked in the lane of this browser (its own budget when a sign-in with every factor
 * made it known, the account's strangers' budget otherwise), below the account's ceiling for codes, then the pending sign-in is spent — once: a second request with it, or
 * one after a password change, fails. Returns the user to open a session for, and what the code was.
 */
export async function completeSignIn(
	db: Db,
	signingSecret: string,
	pendingToken: string,
	code: string,
	deviceToken: string | undefined
): Promise<{ user: SessionUser; code: VerifiedCode }> {
	const userId = await pendingUserOf(db, pendingToken);
	if (!userId) throw new PendingSignInEndedError();
	const user = await queries.userById(db, userId);
	if (!user) throw new PendingSignInEndedError();
	const nonce = knownDeviceNonce({ secret: signingSecret, token: deviceToken }, user.email, user);
	// A browser made known by a link proved the mailbox, not the code: it types codes as a stranger does.
	const lanes =
		nonce && !madeByLink(nonce) ? codeLanes.knownDevice(userId, nonce) : codeLanes.stranger(userId);
	const verified = await verifySecondFactor(db, signingSecret, userId, code, lanes);
	if (!(await spendPendingSignIn(db, pendingToken))) throw new PendingSignInEndedError();
	return { user: toSessionUser(user), code: verified };
}

/**
 * A signed-in session proves its user again (re-authentication, password or e-mail change, deletion): the
 * attempt is spent in the session's own budget, never the strangers' lane (abuse/attempts.ts).
 */
export async function verifyCurrentPassword(
	db: DbOrTx,
	who: { userId: string; sessionId: string },
	password: string,
	wrong: () => AppError
): Promise<SessionUser> {
	const user = await queries.userById(db, who.userId);
	if (!user) throw new InvalidCredentialsError();
	return spendAttempt(db, [{ rule: rules.session, subject: who.sessionId }], async () => {
		if (!(await verifyPassword(user.passwordHash, password))) throw wrong();
		return toSessionUser(user);
	});
}

// ——— « Reconnaître ce navigateur »: the owner's way in while strangers keep the account slowed down ———

export const DEVICE_LINK_LIFETIME_MS = 15 * 60 * 1000;

export const deviceLinkLimits = {
	/** One e-mail per account in five minutes, whoever asks: nobody can flood the owner's mailbox. */
	account: { name: 'device-link-account', max: 1, windowSeconds: 5 * 60 },
	address: { name: 'device-link-address', max: 10, windowSeconds: 60 * 60 }
} satisfies Record<string, Limit>;

/**
 * Makes a single-use link (15 minutes) for the account with this e-mail, when there is one and none was sent in
 * the last five minutes. The caller answers the same whatever this returns: nothing says whether the account exists.
 */
export async function issueDeviceLink(
	db: Db,
	email: string,
	address: string,
	origin: URL,
	now = Date.now()
): Promise<{ user: SessionUser; link: string } | null> {
	const account = email.trim().toLowerCase();
	await countRequest(db, deviceLinkLimits.address, address);
	const user = await queries.userByEmail(db, account);
	if (!user) return null;
	try {
		await countRequest(db, deviceLinkLimits.account, account);
	} catch (error) {
		// Sent in the last five minutes: that link still works, and the answer must not say so.
		if (error instanceof RateLimitedError) return null;
		throw error;
	}
	const token = randomBytes(32).toString('base64url');
	await queries.insertDeviceLink(db, {
		hash: tokenHash(token),
		userId: user.id,
		expiresAt: new Date(now + DEVICE_LINK_LIFETIME_MS)
	});
	return { user: toSessionUser(user), link: new URL(`/login/navigateur/${token}`, origin).href };
}

/** Spends a device link: the account whose known browser this one becomes; null when unknown, used or expired. */
export async function spendDeviceLink(db: DbOrTx, token: string, now = new Date()) {
	if (!/^[\w-]{43}$/.test(token)) return null;
	const user = await queries.spendDeviceLink(db, tokenHash(token), now);
	return user ? toSessionUser(user) : null;
}
