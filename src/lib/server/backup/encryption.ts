/**
 * Archives encrypted with age (https://age-encryption.org, the `age-encryption` package is its reference
 * TypeScript implementation): a standard format that `age -d -i key.txt atelier-….tar.gz.age | tar -xz` opens
 * without Atelier. An archive is a master key to every account (it holds the password hashes, the second factors'
 * keys and the signing secret), so what leaves the machine is sealed:
 *
 * - to public keys (`BACKUP_AGE_RECIPIENTS`, or the installation's own key when none is configured): the server
 *   writes what it cannot read again once the backup is done;
 * - or with a passphrase (the admin page's download), through scrypt as age does it.
 *
 * The header (stanzas, scrypt, MAC) is the package's; the payload after it is sealed and opened with Node's own
 * ChaCha20-Poly1305 (age-payload.ts), the package's JavaScript cipher having been a second of a large backup's CPU.
 *
 * Archives written before 0.4.0 are plain tar.gz; restore reads them only when told so (`--plain`).
 */
import { createCipheriv, randomBytes, scrypt } from 'node:crypto';
import { chmod, mkdir, open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
	Decrypter,
	Encrypter,
	generateX25519Identity,
	identityToRecipient,
	Stanza,
	type Recipient
} from 'age-encryption';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';
import { InvalidArchiveError } from './archive';
import { PayloadOpener, PayloadSealer } from './age-payload';

/** The first line of every age file. */
const AGE_MAGIC = Buffer.from('age-encryption.org/v1\n');
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/**
 * scrypt's cost for a passphrase typed on the admin page: 2^16 (64 MiB, about 0.2 s here) rather than age's
 * default 2^18 (256 MiB), which a running server should not take for one download; the page asks for a longer
 * passphrase (MIN_PASSPHRASE_LENGTH) to make up for the factor of four.
 */
const SERVER_SCRYPT_LOG_N = 16;
export const MIN_PASSPHRASE_LENGTH = 14;

/**
 * How an archive is sealed: to public keys (age1…), or with one passphrase — at the server's scrypt cost, or a
 * lower one where only the stanza's form matters (a unit test opens it with age's own, synchronous, scrypt).
 */
export type SealingKeys = { recipients: readonly string[] } | { passphrase: string; scryptLogN?: number };

/** What may open an archive: identity strings (AGE-SECRET-KEY-1…), a passphrase, and whether plain is accepted. */
export interface OpeningKeys {
	identities: readonly string[];
	passphrase?: () => Promise<string>;
	allowPlain: boolean;
}

/** A key that opens nothing here, or an archive in plain text without `--plain`: said as such, never as damage. */
export class ArchiveKeyError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ArchiveKeyError';
	}
}

export type ArchiveKind = 'age-recipients' | 'age-passphrase' | 'plain' | 'unknown';

/** What a file is, from its first bytes (and, for age, its first stanza). */
export async function archiveKind(file: string): Promise<ArchiveKind> {
	const handle = await open(file, 'r');
	try {
		const head = Buffer.alloc(256);
		const { bytesRead } = await handle.read(head, 0, head.length, 0);
		const start = head.subarray(0, bytesRead);
		if (start.subarray(0, AGE_MAGIC.length).equals(AGE_MAGIC))
			return start.subarray(AGE_MAGIC.length).toString('latin1').startsWith('-> scrypt ')
				? 'age-passphrase'
				: 'age-recipients';
		if (start.subarray(0, 2).equals(GZIP_MAGIC)) return 'plain';
		return 'unknown';
	} finally {
		await handle.close();
	}
}

/** True when `value` is an age public key this version can encrypt to (age1…). */
export function isRecipient(value: string): boolean {
	try {
		new Encrypter().addRecipient(value);
		return true;
	} catch {
		return false;
	}
}

/**
 * A transform that encrypts what goes through it. `readBack`, when given, receives a throw-away identity that
 * the file is also sealed to: the writer reads its own file back with it, then forgets it (the server keeps no
 * key that opens a backup sealed to someone else's).
 */
export async function sealing(keys: SealingKeys, readBack?: { identity: string }): Promise<Duplex> {
	const encrypter = new Encrypter();
	if ('passphrase' in keys) {
		if (readBack) throw new Error('a passphrase-sealed archive has only one stanza');
		encrypter.addRecipient(new NodeScryptRecipient(keys.passphrase, keys.scryptLogN ?? SERVER_SCRYPT_LOG_N));
	} else {
		if (!keys.recipients.length) throw new Error('no recipient to seal the archive to');
		for (const recipient of keys.recipients) encrypter.addRecipient(recipient);
		if (readBack) encrypter.addRecipient(await identityToRecipient(readBack.identity));
	}
	// The header is the package's: its stanzas for each recipient and its MAC, made by encrypting nothing. The file
	// key they seal is seen by a recipient of our own that adds no stanza; the payload is then Node's (age-payload.ts),
	// under a nonce of its own — the package's nonce and its one empty chunk are dropped unread.
	let fileKey: Uint8Array | null = null;
	encrypter.addRecipient({
		wrapFileKey: (key: Uint8Array) => {
			fileKey = key;
			return [];
		}
	});
	const empty = await encrypter.encrypt(new Uint8Array(0));
	const header = empty.subarray(0, headerEnd(Buffer.from(empty)));
	if (!fileKey || !header.length) throw new Error('age-encryption did not make a header as age specifies');
	return new PayloadSealer(header, fileKey);
}

/** A throw-away identity (for reading one's own archive back), kept in memory only. */
export const throwAwayIdentity = (): Promise<string> => generateX25519Identity();

/**
 * The archive's plain tar.gz stream. An age file is opened with the identities, or the passphrase (asked only
 * when the file is sealed with one); a wrong key is refused before any byte is read.
 */
export async function openArchive(file: string, input: () => Readable, keys: OpeningKeys): Promise<Readable> {
	const kind = await archiveKind(file);
	if (kind === 'unknown')
		throw new InvalidArchiveError(
			'not an Atelier backup: it is neither an age-encrypted file nor a tar.gz archive'
		);
	if (kind === 'plain') {
		if (!keys.allowPlain)
			throw new ArchiveKeyError(
				'this archive is not encrypted (a plain tar.gz, as Atelier wrote them before 0.4.0): anyone who had a ' +
					'copy could have changed it. Restore it only if it never left your hands, with --plain'
			);
		return input();
	}
	const decrypter = new Decrypter();
	if (kind === 'age-passphrase') {
		if (!keys.passphrase)
			throw new ArchiveKeyError('this archive is sealed with a passphrase: run the command in a terminal');
		decrypter.addPassphrase(await keys.passphrase());
	} else {
		if (!keys.identities.length)
			throw new ArchiveKeyError(
				'this archive is encrypted to public keys: give the matching private key with --identity <file>'
			);
		for (const identity of keys.identities) decrypter.addIdentity(identity);
	}
	return decrypted(decrypter, input(), kind === 'age-passphrase');
}

/** An age stream as it arrives (a backup being written: file.ts), opened with an identity. */
export function openSealedStream(source: Readable, identity: string): Promise<Readable> {
	const decrypter = new Decrypter();
	decrypter.addIdentity(identity);
	return decrypted(decrypter, source, false);
}

async function decrypted(decrypter: Decrypter, source: Readable, passphrase: boolean): Promise<Readable> {
	let fileKey: Uint8Array;
	try {
		fileKey = await decrypter.decryptHeader(await readHeader(source));
	} catch (error) {
		source.destroy();
		if (error instanceof InvalidArchiveError) throw error;
		const message = (error as Error).message;
		if (/no identity matched/i.test(message))
			throw new ArchiveKeyError(
				passphrase
					? 'the passphrase does not open this archive'
					: 'none of the keys given opens this archive (it was encrypted to other public keys)'
			);
		throw new InvalidArchiveError(`the archive's encryption header cannot be read (${message})`);
	}
	const opener = new PayloadOpener(fileKey);
	// Errors reach the reader through `opener` (pipeline destroys it with the source's).
	pipeline(source, opener).catch(() => {});
	return opener;
}

/** An age header is a few hundred bytes per recipient; a file whose first 64 KiB hold none is not age's. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Where the header ends in `bytes` (after its MAC line, `--- <base64>\n`), or -1 when it is not all there yet.
 * Stanza lines start with `-> ` and their bodies are base64: the first line that starts with `---` is the MAC's.
 */
function headerEnd(bytes: Buffer): number {
	const mac = bytes.indexOf('\n---');
	if (mac < 0) return -1;
	const end = bytes.indexOf('\n', mac + 1);
	return end < 0 ? -1 : end + 1;
}

/**
 * Reads the header from the start of `source`, and leaves the rest of the stream unread for the payload: the
 * bytes read past the header are put back.
 */
function readHeader(source: Readable): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		let read = Buffer.alloc(0);
		const done = (error: Error | null, header?: Buffer) => {
			source.off('readable', onReadable).off('end', onEnd).off('error', done);
			if (error) reject(error);
			else resolve(header!);
		};
		const onEnd = () => done(new InvalidArchiveError('the encrypted archive ends inside its header'));
		const onReadable = () => {
			for (let chunk: Buffer | null; (chunk = source.read() as Buffer | null) !== null;) {
				read = Buffer.concat([read, chunk]);
				const end = headerEnd(read);
				if (end >= 0) {
					if (end < read.length) source.unshift(read.subarray(end));
					return done(null, read.subarray(0, end));
				}
				if (read.length > MAX_HEADER_BYTES)
					return done(new InvalidArchiveError('not an age file: no header in its first 64 KiB'));
			}
		};
		source.on('readable', onReadable).on('end', onEnd).on('error', done);
	});
}

/** The identities (AGE-SECRET-KEY-1…) in an age identity file: one per line, `#` comments. */
export async function readIdentityFile(file: string): Promise<string[]> {
	return parseIdentities(await readFile(file, 'utf8'), file);
}

/** The identities an identity file's text holds; `from` names it in the error. */
export function parseIdentities(text: string, from: string): string[] {
	const identities = text
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line && !line.startsWith('#'));
	if (!identities.length || identities.some((line) => !/^AGE-SECRET-KEY-(?:PQ-)?1[0-9A-Z]+$/.test(line)))
		throw new ArchiveKeyError(`${from} is not an age identity file (lines of AGE-SECRET-KEY-1…)`);
	return identities;
}

/**
 * The installation's own key, when no BACKUP_AGE_RECIPIENTS is configured: DATA_DIR/backup-key.txt, an age identity
 * file made on first need (mode 600). Backups are then encrypted to it, so that a copy that leaves the machine is
 * not readable alone; the key must be kept elsewhere too (docs/operations.md), or set recipients whose private key
 * never is on the server.
 */
export async function installationKey(dataDir: string): Promise<{ file: string; recipient: string }> {
	const file = installationKeyFile(dataDir);
	await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
	const identity = await generateX25519Identity();
	const recipient = await identityToRecipient(identity);
	const text =
		`# Atelier's backup key, made ${new Date().toISOString()}. It opens every backup encrypted to\n` +
		`# public key: ${recipient}\n# Keep a copy away from this server: without it, those backups cannot be read.\n` +
		`${identity}\n`;
	try {
		await writeFile(file, text, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
		return { file, recipient };
	} catch (error) {
		// Made by an earlier backup, or by another instance at the same moment.
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
	}
	await chmod(file, PRIVATE_FILE_MODE);
	const [existing] = await readIdentityFile(file);
	return { file, recipient: await identityToRecipient(existing!) };
}

/**
 * age's scrypt recipient, with Node's asynchronous scrypt: the package's own derives the key synchronously, which
 * would stop a running server for the whole derivation. The stanza is the one age specifies (scrypt, salt, log2 N;
 * the file key sealed with ChaCha20-Poly1305 under a zero nonce), so age and the package read it.
 */
class NodeScryptRecipient implements Recipient {
	constructor(
		private readonly passphrase: string,
		private readonly logN: number
	) {}

	async wrapFileKey(fileKey: Uint8Array): Promise<Stanza[]> {
		const salt = randomBytes(16);
		const label = Buffer.concat([Buffer.from('age-encryption.org/v1/scrypt'), salt]);
		const N = 2 ** this.logN;
		const key = await new Promise<Buffer>((resolve, reject) =>
			scrypt(this.passphrase, label, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 }, (e, k) =>
				e ? reject(e) : resolve(k)
			)
		);
		const cipher = createCipheriv('chacha20-poly1305', key, Buffer.alloc(12), { authTagLength: 16 });
		const body = Buffer.concat([cipher.update(fileKey), cipher.final(), cipher.getAuthTag()]);
		return [new Stanza(['scrypt', salt.toString('base64').replace(/=+$/, ''), String(this.logN)], body)];
	}
}

/**
 * Whom backups are encrypted to: the configured public keys, or else the installation's own key (made on first
 * need). `ownKey` names that key's file when it is the one used (the admin page asks for a copy of it elsewhere).
 */
export async function backupRecipients(
	ageRecipients: readonly string[],
	dataDir: string
): Promise<{ recipients: string[]; ownKey: string | null }> {
	if (ageRecipients.length) return { recipients: [...ageRecipients], ownKey: null };
	const own = await installationKey(dataDir);
	return { recipients: [own.recipient], ownKey: own.file };
}

/** The installation's key file, when one was made: what restore tries when given no identity. */
export const installationKeyFile = (dataDir: string) => path.join(dataDir, 'backup-key.txt');
