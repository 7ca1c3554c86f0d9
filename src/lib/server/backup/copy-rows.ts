/**
 * A table's rows in PostgreSQL's COPY text format (`COPY t (…) TO STDOUT`), as an archive holds them since format 2
 * (archive.ts): one row a line, columns separated by tabs, `\N` for null, and a newline, tab or backslash inside a
 * value written `\n`, `\t`, `\\` — so a line is a row, and counting newlines counts rows.
 */
import { Transform, type TransformCallback } from 'node:stream';

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
