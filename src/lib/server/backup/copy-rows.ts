/**
 * A table's rows in PostgreSQL's COPY text format (`COPY t (…) TO STDOUT`), as an archive holds them since format 2
 * (archive.ts): one row a line, columns separated by tabs, `\N` for null, and a newline, tab or backslash inside a
 * value written `\n`, `\t`, `\\` — so a line is a row, and counting newlines counts rows. And the streams those rows go
 * through between postgres.js or PGlite and a file (tables.ts holds the statements).
 */
import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Bytes of COPY's rows gathered before they are handed on (copyInto). */
const COPY_BATCH_BYTES = 256 * 1024;

/**
 * Passes COPY text on unchanged and counts its rows. A stream that ends inside a row (its last byte not a newline)
 * fails: a row COPY did not finish, or an entry cut short.
 */
export class CountedRows extends Transform {
	rows = 0;
	private last = 0x0a;

	override _transform(chunk: Buffer, _encoding: string, done: TransformCallback): void {
		for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) this.rows++;
		if (chunk.length) this.last = chunk[chunk.length - 1]!;
		done(null, chunk);
	}

	override _flush(done: TransformCallback): void {
		done(this.last === 0x0a ? null : new Error('the rows end in the middle of a row'));
	}
}

/**
 * Cuts COPY text into batches of whole rows of about `bytes` each (the last may be shorter, and a row longer than
 * `bytes` is a batch of its own): for a database that takes COPY's rows one buffer at a time (the embedded database's
 * `/dev/blob`). A batch is the chunks as they came, the last one cut after its last row: nothing is copied here.
 */
export async function* wholeRowBatches(
	source: AsyncIterable<Buffer>,
	bytes: number
): AsyncGenerator<Buffer[]> {
	let held: Buffer[] = [];
	let heldBytes = 0;
	for await (const chunk of source) {
		heldBytes += chunk.length;
		const cut = heldBytes < bytes ? 0 : chunk.lastIndexOf(0x0a) + 1;
		if (!cut) {
			held.push(chunk);
			continue;
		}
		held.push(chunk.subarray(0, cut));
		yield held;
		held = cut < chunk.length ? [chunk.subarray(cut)] : [];
		heldBytes = chunk.length - cut;
	}
	if (heldBytes) yield held;
}

/**
 * Feeds a COPY's stream into `lines` → `out`, and reads the COPY to its end whatever happens downstream. Two flaws of
 * postgres.js 3.4 would otherwise leave the transaction's connection waiting forever (the backup hung, the pool one
 * connection short): it pauses its socket when the stream's buffer is full and resumes it only when the stream is
 * read again, so a stream that ends on a full buffer leaves the socket paused (porsager/postgres#499, fixed by the
 * unmerged #1016); and a destroyed stream pauses it at every message still to come. So the stream is never
 * destroyed here: a failed write (a full disk) stops writing and lets the rest of the rows go by, and once the
 * stream has ended, asking it to read resumes the socket, and does nothing else.
 */
export function copyInto(copy: Readable, lines: Transform, out: Writable): Promise<void> {
	const written = pipeline(lines, out);
	return new Promise((resolve, reject) => {
		let failure: Error | null = null;
		written.catch((error: Error) => {
			failure ??= error;
			copy.resume();
		});
		// postgres.js gives each CopyData message as a chunk of its own — one a row, a few hundred bytes: handed on
		// in batches of COPY_BATCH_BYTES, the stream machinery and the garbage it makes are paid once a batch, not
		// once a row (a million rows: a second and a half of the backup's time, most of it collecting garbage).
		let batch: Buffer[] = [];
		let batched = 0;
		const handOn = () => {
			const ready = batched ? Buffer.concat(batch, batched) : null;
			batch = [];
			batched = 0;
			return ready === null || failure !== null || lines.write(ready);
		};
		copy.on('data', (chunk: Buffer) => {
			if (failure) return;
			batch.push(chunk);
			batched += chunk.length;
			if (batched >= COPY_BATCH_BYTES && !handOn()) copy.pause();
		});
		lines.on('drain', () => copy.resume());
		copy.once('end', () => {
			// postgres.js's COPY stream resumes its socket only when read: read once more after the end (porsager/postgres#499).
			(copy as unknown as { _read(size: number): void })._read(0);
			if (failure) return reject(failure);
			handOn();
			lines.end();
			written.then(resolve, reject);
		});
		copy.once('error', (error) => {
			lines.destroy(error);
			reject(error);
		});
	});
}

/** A Blob whose bytes are a buffer of ours, given as they are (PGlite reads a blob with `arrayBuffer()` alone). */
export class BufferBlob extends Blob {
	constructor(private readonly buffer: ArrayBuffer) {
		super();
	}

	override arrayBuffer(): Promise<ArrayBuffer> {
		return Promise.resolve(this.buffer);
	}
}
