/**
 * `npm run admin -- <command>`: recovering an administrator without e-mail (docs/operations.md).
 *   create <email>          the account becomes an admin (created if missing); prints a set-password link
 *   reset-password <email>  prints a single-use set-password link (2 hours)
 *   remove-2fa <email>      removes the account's second factor (a lost phone and lost recovery codes)
 *   list                    the administrators
 * Never a password on the command line, in the shell's history or on screen. On the embedded database it refuses
 * to run while a server holds DATA_DIR (the database belongs to one process), and says what to do instead.
 */
import { z } from 'zod';
import * as auth from '../../lib/server/auth';
import { removeSecondFactorByCli } from '../../lib/server/auth';
import { loadConfig } from '../../lib/server/config';
import { AppError } from '../../lib/server/errors';
import {
	openCommandDatabase,
	requireInstallation,
	requireInstalledDatabase,
	runCommand,
	EXIT
} from '../cli/command';

const USAGE = 'usage: npm run admin -- create <email> | reset-password <email> | remove-2fa <email> | list';
const email = z.email();

async function main(argv: string[]): Promise<number> {
	const [command, argument] = argv;
	if (!command || !['create', 'reset-password', 'remove-2fa', 'list'].includes(command)) {
		console.error(USAGE);
		return EXIT.usage;
	}
	if (command !== 'list' && !email.safeParse(argument ?? '').success) {
		console.error(`${command} needs an e-mail address\n${USAGE}`);
		return EXIT.usage;
	}
	requireInstallation('admin');
	const config = loadConfig();
	const database = openCommandDatabase(
		config,
		'admin',
		() => 'Stop the server first (it stops cleanly on SIGTERM), run this command, then start it again.'
	);
	try {
		await requireInstalledDatabase(database, config.dataDir, 'admin');
		await database.migrate();
		if (command === 'list') {
			const users = await auth.listAdmins(database.db);
			if (!users.length) console.log('No administrator yet: npm run admin -- create <email>');
			for (const user of users)
				console.log(
					`${user.email}\t${user.name}\tcreated ${user.createdAt.toISOString().slice(0, 10)}\t` +
						`last sign-in ${user.lastSignInAt?.toISOString().slice(0, 16).replace('T', ' ') ?? 'never'}`
				);
			return EXIT.done;
		}
		if (command === 'create') {
			const result = await auth.recoverAdmin(database.db, argument!, config.origin);
			console.error(
				result.created
					? `Created ${argument} as an administrator. Open this link to set the password (7 days, once):`
					: result.promoted
						? `${argument} is now an administrator. Open this link to set a new password (2 hours, once):`
						: `${argument} was already an administrator. Open this link to set a new password (2 hours, once):`
			);
			console.log(result.link);
			return EXIT.done;
		}
		if (command === 'remove-2fa') {
			const removed = await removeSecondFactorByCli(database.db, argument!);
			console.error(
				removed
					? `${argument} signs in with the password alone again; they can enrol a new phone from /profil/securite.`
					: `${argument} had no second factor: nothing to remove.`
			);
			return EXIT.done;
		}
		const link = await auth.passwordLinkFor(database.db, argument!, config.origin);
		console.error(`Open this link to set a new password for ${argument} (2 hours, once):`);
		console.log(link);
		return EXIT.done;
	} catch (error) {
		if (error instanceof AppError) {
			console.error(error.message);
			return EXIT.failed;
		}
		throw error;
	} finally {
		await database.close();
	}
}

runCommand(main);
