/**
 * The keys `npm run backup` and `npm run restore` are given on their command line: `--identity <file>` (an age
 * identity file, repeatable), `--plain` (a plain tar.gz: read one from before 0.4.0, or write one). A file sealed
 * with a passphrase has it asked in the terminal (or read from the first line of standard input when that is not
 * a terminal, for scripts); the installation's own key (DATA_DIR/backup-key.txt) is tried when it exists.
 */
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
	ArchiveKeyError,
	installationKeyFile,
	parseIdentities,
	readIdentityFile,
	type OpeningKeys
} from '../../lib/server/backup';
import { CommandError, operatorPath } from './command';

export interface KeyArguments {
	identityFiles: string[];
	plain: boolean;
	/** What is left: the command's own arguments. */
	rest: string[];
}

/** `--identity -`: read from the standard input, which may be a socket (a parent's pipe), not a file to open. */
const STANDARD_INPUT = '-';

async function readStandardInput(): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

/** Takes `--identity <file>` (or `-`, the standard input) and `--plain` out of the arguments. */
export function takeKeyArguments(argv: string[]): KeyArguments {
	const taken: KeyArguments = { identityFiles: [], plain: false, rest: [] };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === '--plain') taken.plain = true;
		else if (arg === '--identity' || arg === '-i') {
			const file = argv[++i];
			// `-`: the identities come on the standard input (the schedule's weekly check hands its key so).
			if (file === '-') taken.identityFiles.push(STANDARD_INPUT);
			else if (!file || file.startsWith('-')) throw new CommandError(`${arg} needs an identity file`);
			else taken.identityFiles.push(operatorPath(file));
		} else taken.rest.push(arg);
	}
	return taken;
}

/** What may open an archive: the given identities, else the installation's key; the passphrase when asked. */
export async function openingKeys(keys: KeyArguments, dataDir: string): Promise<OpeningKeys> {
	const files = keys.identityFiles.length
		? keys.identityFiles
		: existsSync(installationKeyFile(dataDir))
			? [installationKeyFile(dataDir)]
			: [];
	const identities: string[] = [];
	for (const file of files) {
		try {
			identities.push(
				...(file === STANDARD_INPUT
					? parseIdentities(await readStandardInput(), 'the standard input')
					: await readIdentityFile(file))
			);
		} catch (error) {
			if (error instanceof ArchiveKeyError) throw new CommandError(error.message);
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CommandError(`${file}: no such file`);
			throw error;
		}
	}
	let asked: Promise<string> | null = null;
	return {
		identities,
		allowPlain: keys.plain,
		// Asked once, even though each pass opens the file.
		passphrase: () => (asked ??= askPassphrase('Passphrase of the backup: '))
	};
}

/** Reads a passphrase: from the terminal without echo, or the first line of a piped standard input. */
export async function askPassphrase(prompt: string): Promise<string> {
	const input = process.stdin;
	if (!input.isTTY) {
		const lines = createInterface({ input, terminal: false });
		for await (const line of lines) {
			lines.close();
			return line;
		}
		throw new CommandError('the archive is sealed with a passphrase, and none was given on standard input');
	}
	process.stderr.write(prompt);
	input.setRawMode(true);
	input.resume();
	let typed = '';
	try {
		return await new Promise<string>((resolve, reject) => {
			const onData = (chunk: Buffer) => {
				for (const char of chunk.toString('utf8')) {
					if (char === '\r' || char === '\n') {
						input.off('data', onData);
						return resolve(typed);
					}
					if (char === '\u0003') {
						input.off('data', onData);
						return reject(new CommandError('cancelled'));
					}
					if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
					else typed += char;
				}
			};
			input.on('data', onData);
		});
	} finally {
		input.setRawMode(false);
		input.pause();
		process.stderr.write('\n');
	}
}
