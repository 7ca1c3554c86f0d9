/**
 * What an admin does to other accounts from the users list (issue "Trust", point 2): grant or remove admin, remove
 * a lost second factor. Each behind a recent re-authentication (the route asks), each in the audit trail, and
 * never leaving the site without an administrator. Deleting an account is the memberships domain's (it cancels the
 * subscription first). Bundled into `npm run admin` too: it imports nothing that renders e-mails.
 */
import type { Db, DbOrTx } from '../db';
import { ConflictError, NotFoundError } from '../errors';
import { CLI_ACTOR, recordAudit, type Actor } from '../audit';
import * as queries from './queries';
import { toSessionUser, type SessionUser } from './session';
import { hasSecondFactor, removeFactor } from './two-factor';

const LAST_ADMIN = 'Il doit rester au moins un administrateur : nommez-en un autre d’abord.';

/** Grants or removes admin; removing the last admin is refused (the lock serialises two admins racing to it). */
export async function setAdminRole(
	db: Db,
	targetId: string,
	isAdmin: boolean,
	actor: Actor
): Promise<boolean> {
	return db.transaction(async (tx) => {
		await queries.lockForTransaction(tx, queries.ADMIN_SETUP_LOCK);
		const target = await queries.userById(tx, targetId);
		if (!target) throw new NotFoundError('Compte introuvable.');
		if (target.isAdmin === isAdmin) return false;
		if (!isAdmin && (await queries.countAdmins(tx)) <= 1) throw new ConflictError(LAST_ADMIN);
		await queries.setUserAdmin(tx, targetId, isAdmin);
		await recordAudit(tx, actor, {
			kind: isAdmin ? 'user.admin_granted' : 'user.admin_revoked',
			subjectType: 'user',
			subjectId: targetId,
			changes: { isAdmin: { before: target.isAdmin, after: isAdmin } }
		});
		return true;
	});
}

/** The account signs in with its password alone again (a lost phone and lost recovery codes). */
export async function removeSecondFactorOf(db: Db, targetId: string, actor: Actor): Promise<boolean> {
	return db.transaction(async (tx) => {
		if (!(await queries.userById(tx, targetId))) throw new NotFoundError('Compte introuvable.');
		if (!(await hasSecondFactor(tx, targetId))) return false;
		await removeFactor(tx, targetId);
		await recordAudit(tx, actor, {
			kind: 'user.second_factor_removed',
			subjectType: 'user',
			subjectId: targetId,
			changes: { twoFactor: { before: true, after: false } }
		});
		return true;
	});
}

/** `npm run admin -- remove-2fa <email>`: the same removal, by the command line (its actor in the trail). */
export async function removeSecondFactorByCli(db: Db, email: string): Promise<boolean> {
	const user = await queries.userByEmail(db, email.trim().toLowerCase());
	if (!user) throw new NotFoundError(`Aucun compte pour ${email}.`);
	return removeSecondFactorOf(db, user.id, CLI_ACTOR);
}

/** Refuses what would leave the site without an admin, or an admin deleting their own account from the list. */
export async function assertDeletable(db: Db, targetId: string, actor: Actor): Promise<void> {
	if (targetId === actor.id)
		throw new ConflictError('Pour supprimer votre propre compte, passez par votre profil.');
	const target = await queries.userById(db, targetId);
	if (!target) throw new NotFoundError('Compte introuvable.');
	if (target.isAdmin && (await queries.countAdmins(db)) <= 1) throw new ConflictError(LAST_ADMIN);
}

/** The account with this id, as a session's user; NotFoundError when it is gone. */
export async function accountById(db: DbOrTx, id: string): Promise<SessionUser> {
	const user = await queries.userById(db, id);
	if (!user) throw new NotFoundError('Compte introuvable.');
	return toSessionUser(user);
}

export const countUsers = (db: DbOrTx): Promise<number> => queries.countUsers(db);

export const USERS_PAGE_SIZE = 50;

/** The admin's users list: one page (50) of the search, with the total and the page count. */
export async function listUsers(
	db: DbOrTx,
	filters: { search?: string; role?: queries.UserRole },
	page: number,
	pageSize = USERS_PAGE_SIZE
) {
	const total = await queries.countMatchingUsers(db, filters);
	const pages = Math.max(1, Math.ceil(total / pageSize));
	const current = Math.min(Math.max(1, page), pages);
	const rows = await queries.selectUsers(db, filters, pageSize, (current - 1) * pageSize);
	return { users: rows, total, page: current, pages, pageSize };
}

export const adminsWithoutSecondFactor = (db: DbOrTx) => queries.countAdminsWithoutSecondFactor(db);
