import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { InvalidArchiveError } from './archive';
import {
	ArchiveKeyError,
	archiveKind,
	openArchive,
	readIdentityFile,
	sealing,
	type SealingKeys
} from './encryption';

const PLAIN = Buffer.from('une archive, en clair, assez longue pour plusieurs blocs. '.repeat(2000));

async function sealed(keys: SealingKeys): Promise<string> {
	const file = path.join(await mkdtemp(path.join(tmpdir(), 'atelier-age-')), 'a.tar.gz.age');
	const out = new PassThrough();
	const chunks: Buffer[] = [];
	out.on('data', (c: Buffer) => chunks.push(c));
	await pipeline(Readable.from([PLAIN]), await sealing(keys), out);
	await writeFile(file, Buffer.concat(chunks));
	return file;
}

const readAll = async (stream: Readable) => {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
};
const open = (file: string, keys: Parameters<typeof openArchive>[2]) =>
	openArchive(file, () => createReadStream(file), keys);

describe('age archives', () => {
	it('open with the identity they were sealed to, and with no other', async () => {
		const identity = await generateX25519Identity();
		const file = await sealed({ recipients: [await identityToRecipient(identity)] });
		expect(await archiveKind(file)).toBe('age-recipients');
		expect(
			(await readAll(await open(file, { identities: [identity], allowPlain: false }))).equals(PLAIN)
		).toBe(true);
		await expect(
			open(file, { identities: [await generateX25519Identity()], allowPlain: false })
		).rejects.toThrow(ArchiveKeyError);
		await expect(open(file, { identities: [], allowPlain: false })).rejects.toThrow(/--identity/);
	});

	it('a passphrase seals with age’s scrypt stanza at the server’s cost, 2^16', async () => {
		const file = await sealed({ passphrase: 'une phrase de passe assez longue' });
		expect(await archiveKind(file)).toBe('age-passphrase');
		expect((await readFile(file, 'latin1')).split('\n')[1]).toMatch(/^-> scrypt \S{22} 16$/);
	});

	it('which age’s own code opens; a wrong passphrase is refused', async () => {
		// age's scrypt runs in JavaScript, synchronously: at 2^16 each opening takes seconds, tens on a loaded
		// machine. The stanza is the same at any cost (above); 2^10 keeps this test's time the machine's, not scrypt's.
		const file = await sealed({ passphrase: 'une phrase de passe assez longue', scryptLogN: 10 });
		expect(await archiveKind(file)).toBe('age-passphrase');
		const right = await open(file, {
			identities: [],
			allowPlain: false,
			passphrase: async () => 'une phrase de passe assez longue'
		});
		expect((await readAll(right)).equals(PLAIN)).toBe(true);
		await expect(
			open(file, { identities: [], allowPlain: false, passphrase: async () => 'pas celle-là' })
		).rejects.toThrow('the passphrase does not open this archive');
	});

	it('a changed byte is damage, never a plaintext: in the header it is refused before reading, in the body midway', async () => {
		const identity = await generateX25519Identity();
		const file = await sealed({ recipients: [await identityToRecipient(identity)] });
		const bytes = await readFile(file);
		const header = Buffer.from(bytes);
		const mac = bytes.indexOf('---') + 5; // in the header's MAC
		header[mac] = header[mac]! ^ 1;
		await writeFile(file, header);
		await expect(open(file, { identities: [identity], allowPlain: false })).rejects.toThrow(
			InvalidArchiveError
		);
		const body = Buffer.from(bytes);
		body[body.length - 100] = body[body.length - 100]! ^ 1;
		await writeFile(file, body);
		await expect(readAll(await open(file, { identities: [identity], allowPlain: false }))).rejects.toThrow();
	});

	it('a plain tar.gz only with --plain; anything else is not a backup', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'atelier-plain-'));
		const plain = path.join(dir, 'a.tar.gz');
		const gz = new PassThrough();
		const chunks: Buffer[] = [];
		gz.on('data', (c: Buffer) => chunks.push(c));
		await pipeline(Readable.from([PLAIN]), createGzip(), gz);
		await writeFile(plain, Buffer.concat(chunks));
		await expect(open(plain, { identities: [], allowPlain: false })).rejects.toThrow(/--plain/);
		await expect(open(plain, { identities: [], allowPlain: true })).resolves.toBeInstanceOf(Readable);
		const other = path.join(dir, 'notes.txt');
		await writeFile(other, 'pas une sauvegarde');
		await expect(open(other, { identities: [], allowPlain: true })).rejects.toThrow(InvalidArchiveError);
	});

	it('reads age identity files, and refuses a file that is not one', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'atelier-keys-'));
		const identity = await generateX25519Identity();
		const good = path.join(dir, 'key.txt');
		await writeFile(
			good,
			`# created: now\n# public key: ${await identityToRecipient(identity)}\n${identity}\r\n`
		);
		expect(await readIdentityFile(good)).toEqual([identity]);
		const bad = path.join(dir, 'id_rsa');
		await writeFile(bad, '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n');
		await expect(readIdentityFile(bad)).rejects.toThrow(ArchiveKeyError);
		await writeFile(bad, '# only comments\n');
		await expect(readIdentityFile(bad)).rejects.toThrow(ArchiveKeyError);
	});
});
