/**
 * Accounts made by a person (SEED part 5; issue "Accounts"): registration, and the first administrator while none
 * exists. Each returns the new account; the auth domain's index turns it into a proof that opens a session.
 */
import type { RegisterInput } from '$lib/schemas/auth';
import { countRequest, type Limit } from '../abuse';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db';
import { isDatabaseUnavailable } from '../db/unavailable';
import { isUniqueViolation } from '../db/violations';
import { ConflictError, ValidationError } from '../errors';
import { assertPasswordPolicy, hashPassword } from './password';
import * as queries from './queries';
import { toSessionUser, type SessionUser } from './session';

const MINUTES_15 = 15 * 60;

export const limits = {
	registerAddress: { name: 'register-address', max: 20, windowSeconds: 60 * 60 },
	setupAddress: { name: 'setup-address', max: 10, windowSeconds: MINUTES_15 }
} satisfies Record<string, Limit>;

const emailTaken = () => new ValidationError({ email: ['Un compte existe déjà avec cette adresse e-mail.'] });

export async function register(db: Db, input: RegisterInput, address: string): Promise<SessionUser> {
	await countRequest(db, limits.registerAddress, address);
	assertPasswordPolicy(input.password);
	const passwordHash = await hashPassword(input.password);
	try {
		const user = await queries.insertUser(db, {
			email: input.email.toLowerCase(),
			name: input.name,
			passwordHash
		});
		return toSessionUser(user);
	} catch (error) {
		if (isUniqueViolation(error)) throw emailTaken();
		throw error;
	}
}

export async function adminExists(db: DbOrTx): Promise<boolean> {
	return (await queries.countAdmins(db)) > 0;
}

/**
 * For pages that only show a hint about it (/login's "create the first admin", /setup-admin's "already done"):
 * `unknown` while the database cannot answer, so that the page still shows its form with what was typed — the
 * form's action then says the service is unavailable.
 */
export async function adminState(db: DbOrTx): Promise<'exists' | 'none' | 'unknown'> {
	try {
		return (await adminExists(db)) ? 'exists' : 'none';
	} catch (error) {
		if (isDatabaseUnavailable(error)) return 'unknown';
		throw error;
	}
}

export class AdminAlreadyExistsError extends ConflictError {
	constructor() {
		super('L’administrateur est déjà configuré.');
	}
}

/**
 * Creates the first administrator, only while none exists. A transaction-scoped advisory lock serialises
 * concurrent setups, so that of 20 simultaneous requests exactly one creates an admin and the others see it.
 */
export async function setupFirstAdmin(db: Db, input: RegisterInput, address: string): Promise<SessionUser> {
	await countRequest(db, limits.setupAddress, address);
	if (await adminExists(db)) throw new AdminAlreadyExistsError();
	assertPasswordPolicy(input.password);
	const passwordHash = await hashPassword(input.password);
	return db.transaction(async (tx) => {
		await queries.lockForTransaction(tx, queries.ADMIN_SETUP_LOCK);
		if (await adminExists(tx)) throw new AdminAlreadyExistsError();
		const email = input.email.toLowerCase();
		if (await queries.userByEmail(tx, email)) throw emailTaken();
		const user = await queries.insertUser(tx, { email, name: input.name, passwordHash, isAdmin: true });
		await recordAudit(tx, user, {
			kind: 'admin.first_created',
			subjectType: 'user',
			subjectId: user.id,
			changes: { isAdmin: { before: null, after: true } }
		});
		return toSessionUser(user);
	});
}
