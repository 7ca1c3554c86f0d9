/**
 * Two-factor sign-in (issue "Trust", point 2): enrolment with a TOTP key and ten recovery codes, the code asked
 * after the password, a code refused once used, and its removal (by the owner with a code, or `npm run admin`
 * when the phone is lost). Rules only: the key's encryption and the codes' arithmetic are in totp.ts.
 */
import { recordAudit, type Actor } from '../audit';
import type { Db, DbOrTx } from '../db';
import { ValidationError } from '../errors';
import { rules, spendAttempt, type Lane } from '../abuse';
import * as queries from './queries';
import { createHash } from 'node:crypto';
import * as recoveryCodes from './queries/recovery-codes';
import {
	decryptKey,
	encryptKey,
	looksLikeRecoveryCode,
	matchingStep,
	newRecoveryCodes,
	newTotpKey,
	totpUri,
	typedKey
} from './totp';

/**
 * How a recovery code is stored: its SHA-256, after folding case, spaces and dashes the way people type it. Not
 * exported: a code is hashed here only, to store new ones or to spend one inside `spendAttempt`.
 */
const recoveryCodeHash = (code: string) =>
	createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('hex');

/**
 * Whose budget a code spends (abuse/attempts.ts): at sign-in, an unknown browser spends the account's strangers'
 * lane (5 wrong in 15 minutes: six digits must not be guessable by trying), a browser the account knows its own;
 * and every code at sign-in, whatever browser types it, also spends the account's one ceiling (10 in 15 minutes),
 * so known browsers — however many there are — never add up to more. The ceiling is above the strangers' 5: what
 * they spend never closes it to the owner's browser. A signed-in session (re-authentication, enrolment, removal,
 * new recovery codes) spends the session's. The narrow lane comes first: one that refuses gives back the
 * ceiling's place (spendAttempt), and strangers never hold more than their 5 of it at any moment.
 */
export const codeLanes = {
	stranger: (userId: string): Lane[] => [
		{ rule: rules.codeAccount, subject: userId },
		{ rule: rules.codeCeiling, subject: userId }
	],
	knownDevice: (userId: string, nonce: string): Lane[] => [
		{ rule: rules.codeDevice, subject: nonce },
		{ rule: rules.codeCeiling, subject: userId }
	],
	session: (sessionId: string): Lane[] => [{ rule: rules.session, subject: sessionId }]
};

export const WRONG_CODE = 'Ce code n’est pas le bon (ou il a déjà servi). Attendez le suivant et réessayez.';

export interface TwoFactorState {
	enabled: boolean;
	since: Date | null;
	recoveryCodesLeft: number;
}

export async function twoFactorState(db: DbOrTx, userId: string): Promise<TwoFactorState> {
	const factor = await queries.totpFactorOf(db, userId);
	const enabled = !!factor?.confirmedAt;
	const left = enabled ? await recoveryCodes.countUnusedRecoveryCodes(db, userId) : 0;
	return { enabled, since: factor?.confirmedAt ?? null, recoveryCodesLeft: left };
}

export const hasSecondFactor = (db: DbOrTx, userId: string) => queries.hasConfirmedFactor(db, userId);

/**
 * Starts (or restarts) an enrolment: a new key, kept unconfirmed until a code from it is typed. What the page
 * shows: the `otpauth://` URI for the QR code, and the key to type by hand.
 */
export async function startEnrolment(
	db: Db,
	signingSecret: string,
	user: { id: string; email: string },
	issuer: string
): Promise<{ uri: string; typedKey: string }> {
	if (await hasSecondFactor(db, user.id))
		throw new ValidationError({ code: ['La double authentification est déjà active sur ce compte.'] });
	const key = newTotpKey();
	await queries.upsertPendingFactor(db, user.id, encryptKey(signingSecret, key));
	return { uri: totpUri(key, issuer, user.email), typedKey: typedKey(key) };
}

/** The enrolment's key again (the page shown once more before the code is typed); null when none is pending. */
export async function pendingEnrolment(
	db: DbOrTx,
	signingSecret: string,
	user: { id: string; email: string },
	issuer: string
): Promise<{ uri: string; typedKey: string } | null> {
	const factor = await queries.totpFactorOf(db, user.id);
	if (!factor || factor.confirmedAt) return null;
	const key = decryptKey(signingSecret, factor.encryptedKey);
	return { uri: totpUri(key, issuer, user.email), typedKey: typedKey(key) };
}

/**
 * Confirms the enrolment with a code from the app: the factor becomes active, and ten recovery codes are made —
 * returned once, for the page to show; only their hashes are kept.
 */
export async function confirmEnrolment(
	db: Db,
	signingSecret: string,
	userId: string,
	code: string,
	lanes: Lane[],
	now = new Date()
): Promise<string[]> {
	return spendAttempt(db, lanes, () =>
		db.transaction(async (tx) => {
			const factor = await queries.totpFactorOf(tx, userId, true);
			if (!factor || factor.confirmedAt)
				throw new ValidationError({ code: ['Recommencez l’activation : aucune n’est en cours.'] });
			const step = matchingStep(decryptKey(signingSecret, factor.encryptedKey), code, now);
			if (step === null) throw new ValidationError({ code: [WRONG_CODE] });
			await queries.confirmFactor(tx, userId, now, step);
			return replaceRecoveryCodes(tx, userId);
		})
	);
}

/** Ten new recovery codes; the old ones are void. Returned once, for the page to show: only hashes are kept. */
async function replaceRecoveryCodes(tx: DbOrTx, userId: string): Promise<string[]> {
	const fresh = newRecoveryCodes();
	await recoveryCodes.replaceRecoveryCodeHashes(tx, userId, fresh.map(recoveryCodeHash));
	return fresh;
}

/**
 * « Générer de nouveaux codes »: a code from the app (or a recovery code) proves it is the owner, in the session's
 * budget; ten new codes replace the old ones, which are void. In the trail.
 */
export async function renewRecoveryCodes(
	db: Db,
	signingSecret: string,
	user: Actor & { id: string },
	lanes: Lane[],
	code: string
): Promise<string[]> {
	await verifySecondFactor(db, signingSecret, user.id, code, lanes);
	return db.transaction(async (tx) => {
		const codes = await replaceRecoveryCodes(tx, user.id);
		await recordAudit(tx, user, {
			kind: 'user.recovery_codes_renewed',
			subjectType: 'user',
			subjectId: user.id
		});
		return codes;
	});
}

export interface VerifiedCode {
	method: 'totp' | 'recovery';
	/** Unused recovery codes left after this one (a recovery code's sign-in says how many). */
	recoveryCodesLeft: number;
}

/**
 * Checks a code: one from the app (refused when it, or a later one, was already used: the step only moves forward,
 * in one UPDATE, so two requests with the same code cannot both pass) or an unused recovery code (spent by the same
 * UPDATE that checks it). The attempt is spent in `lanes` before anything is checked (abuse/attempts.ts).
 */
export async function verifySecondFactor(
	db: Db,
	signingSecret: string,
	userId: string,
	code: string,
	lanes: Lane[],
	now = new Date()
): Promise<VerifiedCode> {
	return spendAttempt(db, lanes, async () => {
		const wrong = () => new ValidationError({ code: [WRONG_CODE] });
		const factor = await queries.totpFactorOf(db, userId);
		if (!factor?.confirmedAt) throw wrong();
		if (looksLikeRecoveryCode(code)) {
			if (!(await recoveryCodes.spendRecoveryCode(db, userId, recoveryCodeHash(code), now))) throw wrong();
			return {
				method: 'recovery',
				recoveryCodesLeft: await recoveryCodes.countUnusedRecoveryCodes(db, userId)
			};
		}
		const step = matchingStep(decryptKey(signingSecret, factor.encryptedKey), code, now);
		// Only forward: a code already used, or older than one used, is refused.
		if (step === null || !(await queries.advanceTotpStep(db, userId, step))) throw wrong();
		return { method: 'totp', recoveryCodesLeft: await recoveryCodes.countUnusedRecoveryCodes(db, userId) };
	});
}

/** The owner turns it off from their session, proving it with a code (or a recovery code); in the trail. */
export async function disableOwn(
	db: Db,
	signingSecret: string,
	user: Actor & { id: string },
	sessionId: string,
	code: string
): Promise<void> {
	await verifySecondFactor(db, signingSecret, user.id, code, codeLanes.session(sessionId));
	await db.transaction(async (tx) => {
		await removeFactor(tx, user.id);
		await recordAudit(tx, user, {
			kind: 'user.own_second_factor_removed',
			subjectType: 'user',
			subjectId: user.id,
			changes: { twoFactor: { before: true, after: false } }
		});
	});
}

export const removeFactor = (db: DbOrTx, userId: string) => queries.deleteFactor(db, userId);
