/**
 * The payload of an age file (https://age-encryption.org/v1, « Payload »), sealed and opened with Node's own
 * ChaCha20-Poly1305 (OpenSSL) rather than the `age-encryption` package's JavaScript one, behind web streams: at the
 * reference size of `npm run bench scale` (a 35 MB archive, sealed as it is written and opened again by the check
 * that reads it as written), the package's cipher and streams were about a second of the backup's CPU, the largest
 * part left that was not the database's or zlib's. The header — the recipients' stanzas, the scrypt stanza, the
 * MAC — stays the package's (encryption.ts): this file only does what follows it.
 *
 * The payload is a 16-byte nonce, then the plaintext in chunks of 64 KiB, each sealed with ChaCha20-Poly1305 under
 * the key HKDF-SHA-256(file key, nonce, "payload") and a 12-byte nonce: an 11-byte big-endian counter and a last
 * byte of 1 for the final chunk, 0 otherwise. Only the final chunk may be shorter than 64 KiB, and it is empty only
 * when the whole plaintext is. The `age` tool opens what this writes, and the package what it writes, both ways
 * proven by tests (age-payload.test.ts).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { InvalidArchiveError } from './archive';

const CHUNK = 64 * 1024;
const TAG = 16;
const NONCE = 16;

const payloadKey = (fileKey: Uint8Array, nonce: Uint8Array) =>
	Buffer.from(hkdfSync('sha256', fileKey, nonce, 'payload', 32));

/** The per-chunk nonce: the counter in the first 11 bytes (big-endian), the last byte 1 for the final chunk. */
function chunkNonce(counter: number, last: boolean): Buffer {
	const nonce = Buffer.alloc(12);
	nonce.writeBigUInt64BE(BigInt(counter), 3);
	nonce[11] = last ? 1 : 0;
	return nonce;
}

/** Bytes kept in arrival order, taken from the front without copying more than what is taken. */
class Pending {
	private chunks: Buffer[] = [];
	length = 0;

	push(chunk: Buffer) {
		this.chunks.push(chunk);
		this.length += chunk.length;
	}

	take(size: number): Buffer {
		const first = this.chunks[0];
		if (!first || size === 0) return Buffer.alloc(0);
		let taken: Buffer;
		if (first.length >= size) {
			taken = first.subarray(0, size);
			if (first.length === size) this.chunks.shift();
			else this.chunks[0] = first.subarray(size);
		} else {
			const whole = Buffer.concat(this.chunks, this.length);
			taken = whole.subarray(0, size);
			this.chunks = whole.length > size ? [whole.subarray(size)] : [];
		}
		this.length -= size;
		return taken;
	}
}

/**
 * Seals what is written to it: `header` (the age header, MAC included) first, then a fresh payload nonce and the
 * chunks. A chunk is sealed only once more bytes follow it, so that the final one is flagged as such even when the
 * plaintext ends on a chunk's boundary.
 */
export class PayloadSealer extends Transform {
	private readonly key: Buffer;
	private readonly pending = new Pending();
	private counter = 0;

	constructor(header: Uint8Array, fileKey: Uint8Array) {
		super();
		const nonce = randomBytes(NONCE);
		this.key = payloadKey(fileKey, nonce);
		this.push(Buffer.concat([header, nonce]));
	}

	override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
		this.pending.push(chunk);
		while (this.pending.length > CHUNK) this.push(this.seal(this.pending.take(CHUNK), false));
		callback();
	}

	override _flush(callback: TransformCallback): void {
		callback(null, this.seal(this.pending.take(this.pending.length), true));
	}

	private seal(plain: Buffer, last: boolean): Buffer {
		const cipher = createCipheriv('chacha20-poly1305', this.key, chunkNonce(this.counter++, last), {
			authTagLength: TAG
		});
		return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
	}
}

/**
 * Opens the payload that follows a header already read and checked (its file key): the nonce, then each chunk,
 * authenticated before a byte of it is handed on. A changed byte, a chunk missing at the end, bytes after the final
 * chunk or a final chunk that is not flagged as such all fail the stream with InvalidArchiveError.
 */
export class PayloadOpener extends Transform {
	private key: Buffer | null = null;
	private readonly pending = new Pending();
	private counter = 0;

	constructor(private readonly fileKey: Uint8Array) {
		super();
	}

	override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
		this.pending.push(chunk);
		try {
			if (!this.key) {
				if (this.pending.length < NONCE) return callback();
				this.key = payloadKey(this.fileKey, this.pending.take(NONCE));
			}
			// A full chunk is known not to be the final one only once a byte follows it.
			while (this.pending.length > CHUNK + TAG) this.push(this.open(this.pending.take(CHUNK + TAG), false));
			callback();
		} catch (error) {
			callback(error as Error);
		}
	}

	override _flush(callback: TransformCallback): void {
		try {
			if (!this.key || this.pending.length < TAG || (this.pending.length === TAG && this.counter > 0))
				throw new InvalidArchiveError('the encrypted archive is truncated');
			callback(null, this.open(this.pending.take(this.pending.length), true));
		} catch (error) {
			callback(error as Error);
		}
	}

	private open(sealed: Buffer, last: boolean): Buffer {
		const decipher = createDecipheriv('chacha20-poly1305', this.key!, chunkNonce(this.counter++, last), {
			authTagLength: TAG
		});
		decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
		try {
			return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG)), decipher.final()]);
		} catch {
			throw new InvalidArchiveError(
				'the encrypted archive is damaged or truncated: a chunk does not authenticate'
			);
		}
	}
}
