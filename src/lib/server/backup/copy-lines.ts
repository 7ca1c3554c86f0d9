/**
 * The rows of `COPY (select <one text column>) TO STDOUT (FORMAT binary)` as lines (backup/tables.ts writes each
 * table's JSON so): PostgreSQL's binary COPY sends each value with its length, so nothing in it is escaped and
 * nothing need be decoded.
 */
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Turns `COPY … (FORMAT binary)` of one text column into lines: a signature and header, then per row a field
 * count (1), the value's length and its bytes, then a count of -1. Rows are copied into the output chunk by chunk, a
 * row split across chunks kept until it is whole; anything else than that layout fails the backup.
 */
export class CopyLines extends Transform {
	rows = 0;
	private pending = Buffer.alloc(0);
	private headerRead = false;
	private ended = false;

	override _transform(chunk: Buffer, _encoding: string, done: TransformCallback): void {
		try {
			const input = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
			let at = 0;
			if (!this.headerRead) {
				const signed = Math.min(input.length, COPY_HEADER.length);
				if (!input.subarray(0, signed).equals(COPY_HEADER.subarray(0, signed)))
					throw new Error('COPY did not answer in its binary format');
				if (input.length < COPY_HEADER.length + 8) return this.keep(input, 0, done);
				at = COPY_HEADER.length + 8 + input.readUInt32BE(COPY_HEADER.length + 4);
				if (input.length < at) return this.keep(input, 0, done);
				this.headerRead = true;
			}
			const output = Buffer.allocUnsafe(input.length);
			let written = 0;
			while (!this.ended && input.length - at >= 2) {
				const fields = input.readInt16BE(at);
				if (fields === -1) {
					this.ended = true;
					at += 2;
					break;
				}
				if (fields !== 1 || input.length - at < 6) {
					if (fields !== 1) throw new Error(`COPY sent a row of ${fields} fields`);
					break;
				}
				const length = input.readInt32BE(at + 2);
				if (length < 0) throw new Error('COPY sent a row without its JSON');
				if (input.length - at - 6 < length) break;
				written += input.copy(output, written, at + 6, at + 6 + length);
				output[written++] = 0x0a;
				this.rows++;
				at += 6 + length;
			}
			if (written) this.push(output.subarray(0, written));
			this.keep(input, at, done);
		} catch (error) {
			done(error as Error);
		}
	}

	override _flush(done: TransformCallback): void {
		done(this.ended && !this.pending.length ? null : new Error('COPY ended in the middle of its rows'));
	}

	private keep(input: Buffer, from: number, done: TransformCallback): void {
		// A copy, not a view: a view of the chunk would keep all of it alive for the few bytes still to come.
		this.pending = from < input.length ? Buffer.from(input.subarray(from)) : Buffer.alloc(0);
		done();
	}
}

/** `PGCOPY\n\377\r\n\0`, then 4 bytes of flags and the header extension's length. */
const COPY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
