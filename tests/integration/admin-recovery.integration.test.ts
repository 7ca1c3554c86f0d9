/**
 * Recovering an administrator without e-mail (issue "Self-hosting, part 2", point 3): `npm run admin` calls these.
 * A link, never a password: the account becomes an admin (made if missing) and its owner sets the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAdmins, passwordLinkFor, recoverAdmin } from '../../src/lib/server/auth/recovery';
import { setPasswordWithLink } from '../../src/lib/server/auth/password-links';
import { signIn } from '../helpers/sign-in';
import { auditEvents, users } from '../../src/lib/server/db/schema';
import { NotFoundError } from '../../src/lib/server/errors';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

const origin = new URL('https://atelier.test');
const PASSWORD = 'une phrase de passe solide';
let database: TestDatabase;
beforeAll(async () => (database = await createTestDatabase()));
afterAll(() => database.dispose());

const tokenOf = (link: string) => new URL(link).pathname.split('/').pop()!;

describe(`admin recovery on ${driverName}`, () => {
	it('creates an admin with a single-use link that sets the password and signs in', async () => {
		const result = await recoverAdmin(database.db, 'Patronne@Exemple.fr', origin);
		expect(result).toMatchObject({ created: true, promoted: true });
		expect(result.link).toMatch(/^https:\/\/atelier\.test\/mot-de-passe\/[\w-]{40,}$/);
		await setPasswordWithLink(database.db, tokenOf(result.link), PASSWORD);
		const user = await signIn(database.db, 'patronne@exemple.fr', PASSWORD, '10.9.0.1');
		expect(user.isAdmin).toBe(true);
		await expect(setPasswordWithLink(database.db, tokenOf(result.link), PASSWORD)).rejects.toThrow();
		expect((await listAdmins(database.db)).map((u) => u.email)).toEqual(['patronne@exemple.fr']);
	});

	it('promotes an existing member, and says when the account already was an admin', async () => {
		const first = await recoverAdmin(database.db, 'membre@exemple.fr', origin);
		expect(first).toMatchObject({ created: true, promoted: true });
		const again = await recoverAdmin(database.db, 'membre@exemple.fr', origin);
		expect(again).toMatchObject({ created: false, promoted: false });
		// The trail says apart a creation and a mere link for an existing admin.
		await database.db
			.insert(users)
			.values({ email: 'existant@exemple.fr', name: 'Existant', passwordHash: 'x' });
		await recoverAdmin(database.db, 'existant@exemple.fr', origin);
		const kinds = (await database.db.select().from(auditEvents).orderBy(auditEvents.at)).map((e) => e.kind);
		expect(kinds.slice(-3)).toEqual([
			'admin.created_by_cli',
			'admin.password_link_by_cli',
			'admin.promoted_by_cli'
		]);
	});

	it('gives a reset link for an existing account, and a clear refusal for an unknown one', async () => {
		const link = await passwordLinkFor(database.db, 'patronne@exemple.fr', origin);
		await setPasswordWithLink(database.db, tokenOf(link), `${PASSWORD} neuve`);
		expect((await signIn(database.db, 'patronne@exemple.fr', `${PASSWORD} neuve`, '10.9.0.2')).email).toBe(
			'patronne@exemple.fr'
		);
		await expect(passwordLinkFor(database.db, 'personne@exemple.fr', origin)).rejects.toThrow(NotFoundError);
	});
});
