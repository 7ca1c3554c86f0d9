import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, type Duplex } from 'node:stream';
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { InvalidArchiveError } from './archive';
import { openSealedStream, sealing } from './encryption';

const CHUNK = 64 * 1024;
// Every edge of the chunking: empty, one byte, one short of a chunk, exactly one, one past it, several exactly.
const SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 200_000];

const plaintext = (size: number) => {
	const bytes = Buffer.alloc(size);
	for (let i = 0; i < size; i++) bytes[i] = (i * 7919) % 251;
	return bytes;
};

/** Written through the stream in uneven pieces, as a gzip stream hands them on. */
async function through(stream: Duplex, input: Buffer): Promise<Buffer> {
	const out: Buffer[] = [];
	stream.on('data', (chunk: Buffer) => out.push(chunk));
	const ended = new Promise<void>((resolve, reject) => stream.on('end', resolve).on('error', reject));
	for (let at = 0, piece = 1; at < input.length; at += piece, piece = (piece * 3 + 5) % 90_000)
		stream.write(input.subarray(at, at + piece));
	stream.end();
	await ended;
	return Buffer.concat(out);
}

const readAll = async (stream: Readable) => {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
};

async function keyPair() {
	const identity = await generateX25519Identity();
	return { identity, recipient: await identityToRecipient(identity) };
}

const sealedBy = async (recipient: string, input: Buffer) =>
	through(await sealing({ recipients: [recipient] }), input);
const openedBy = async (identity: string, sealed: Buffer) =>
	readAll(await openSealedStream(Readable.from([sealed]), identity));

describe('the age payload sealed and opened with Node’s ChaCha20-Poly1305', () => {
	it.each(SIZES)('%i bytes: the age-encryption package opens ours, and we open its own', async (size) => {
		const { identity, recipient } = await keyPair();
		const input = plaintext(size);
		const ours = await sealedBy(recipient, input);
		const decrypter = new Decrypter();
		decrypter.addIdentity(identity);
		expect(Buffer.from(await decrypter.decrypt(ours)).equals(input)).toBe(true);

		const encrypter = new Encrypter();
		encrypter.addRecipient(recipient);
		const theirs = Buffer.from(await encrypter.encrypt(input));
		expect((await openedBy(identity, theirs)).equals(input)).toBe(true);
		// The same layout to the byte: one X25519 stanza each, the same chunks and tags.
		expect(ours.length).toBe(theirs.length);
	});

	it.skipIf(!existsSync('/usr/bin/age'))(
		'the age tool opens ours, and we open its own (CI installs it)',
		async () => {
			const dir = await mkdtemp(path.join(tmpdir(), 'atelier-age-tool-'));
			const { identity, recipient } = await keyPair();
			await writeFile(path.join(dir, 'key.txt'), `${identity}\n`, { mode: 0o600 });
			for (const size of SIZES) {
				const input = plaintext(size);
				await writeFile(path.join(dir, 'ours.age'), await sealedBy(recipient, input));
				const opened = spawnSync('age', ['-d', '-i', path.join(dir, 'key.txt'), path.join(dir, 'ours.age')]);
				expect(opened.status, opened.stderr.toString()).toBe(0);
				expect(opened.stdout.equals(input), `${size} bytes`).toBe(true);

				await writeFile(path.join(dir, 'plain'), input);
				const sealed = spawnSync('age', [
					'-r',
					recipient,
					'-o',
					path.join(dir, 'theirs.age'),
					path.join(dir, 'plain')
				]);
				expect(sealed.status, sealed.stderr.toString()).toBe(0);
				expect((await openedBy(identity, await readFile(path.join(dir, 'theirs.age')))).equals(input)).toBe(
					true
				);
			}
		}
	);

	it('a changed, missing, added or moved chunk fails the stream: nothing unauthenticated is handed on', async () => {
		const { identity, recipient } = await keyPair();
		const input = plaintext(3 * CHUNK + 100);
		const sealed = await sealedBy(recipient, input);
		const payload = sealed.length - (3 * (CHUNK + 16) + 100 + 16); // where the chunks start
		const chunk = (i: number) =>
			sealed.subarray(payload + i * (CHUNK + 16), payload + (i + 1) * (CHUNK + 16));
		const head = sealed.subarray(0, payload);
		const damaged = {
			'a changed byte': Buffer.from(sealed).fill(7, sealed.length - 50, sealed.length - 49),
			'the final chunk missing': Buffer.concat([head, chunk(0), chunk(1), chunk(2)]),
			'the final chunk cut short': sealed.subarray(0, sealed.length - 10),
			'bytes after the final chunk': Buffer.concat([sealed, Buffer.from('de trop')]),
			'two chunks swapped': Buffer.concat([
				head,
				chunk(1),
				chunk(0),
				sealed.subarray(payload + 2 * (CHUNK + 16))
			]),
			'only the header and the nonce': head
		};
		for (const [name, bytes] of Object.entries(damaged)) {
			const opened: Buffer[] = [];
			const stream = await openSealedStream(Readable.from([bytes]), identity);
			const failure = await new Promise<unknown>((resolve) =>
				stream
					.on('data', (c: Buffer) => opened.push(c))
					.on('error', resolve)
					.on('end', () => resolve(null))
			);
			expect(failure, name).toBeInstanceOf(InvalidArchiveError);
			// What was handed on before the failure is a prefix of the plaintext, never a forged byte.
			const prefix = Buffer.concat(opened);
			expect(input.subarray(0, prefix.length).equals(prefix), name).toBe(true);
		}
	});

	it('a file with no age header in its first 64 KiB, or one that ends inside it, is refused', async () => {
		const { identity } = await keyPair();
		await expect(openSealedStream(Readable.from([Buffer.alloc(100_000, 0x41)]), identity)).rejects.toThrow(
			InvalidArchiveError
		);
		await expect(
			openSealedStream(Readable.from([Buffer.from('age-encryption.org/v1\n-> X25519 abc\n')]), identity)
		).rejects.toThrow(/ends inside its header/);
	});
});
