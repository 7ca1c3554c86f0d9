import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CopyLines } from './copy-lines';

/** What PostgreSQL sends for `COPY (select <text>) TO STDOUT (FORMAT binary)`: header, rows, trailer. */
function copyOutput(values: (string | null)[], { trailer = true, fields = 1, extension = '' } = {}): Buffer {
	const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(4)];
	const ext = Buffer.from(extension);
	const extLength = Buffer.alloc(4);
	extLength.writeUInt32BE(ext.length);
	parts.push(extLength, ext);
	for (const value of values) {
		const head = Buffer.alloc(6);
		head.writeInt16BE(fields);
		const body = value === null ? Buffer.alloc(0) : Buffer.from(value);
		head.writeInt32BE(value === null ? -1 : body.length, 2);
		parts.push(head, body);
	}
	if (trailer) parts.push(Buffer.from([0xff, 0xff]));
	return Buffer.concat(parts);
}

async function linesOf(chunks: Buffer[]): Promise<{ text: string; rows: number }> {
	const lines = new CopyLines();
	const out: Buffer[] = [];
	await pipeline(
		Readable.from(chunks),
		lines,
		new Writable({
			write(chunk: Buffer, _encoding, done) {
				out.push(chunk);
				done();
			}
		})
	);
	return { text: Buffer.concat(out).toString('utf8'), rows: lines.rows };
}

const ROWS = ['{"id":1,"name":"Zoé"}', '{"note":"a\\\\b \\"c\\"\\n"}', '{}', '{"emoji":"🧱"}'];

describe('CopyLines', () => {
	it('gives one line per row, whatever the chunks are cut at (each byte boundary tried)', async () => {
		const whole = copyOutput(ROWS, { extension: 'ext' });
		const expected = ROWS.map((row) => `${row}\n`).join('');
		expect(await linesOf([whole])).toEqual({ text: expected, rows: 4 });
		for (let cut = 1; cut < whole.length; cut++)
			expect(await linesOf([whole.subarray(0, cut), whole.subarray(cut)]), `cut at ${cut}`).toEqual({
				text: expected,
				rows: 4
			});
		const bytes = [...whole].map((byte) => Buffer.from([byte]));
		expect(await linesOf(bytes)).toEqual({ text: expected, rows: 4 });
	});

	it('an empty table is no line', async () => {
		expect(await linesOf([copyOutput([])])).toEqual({ text: '', rows: 0 });
	});

	it('refuses what is not one non-null text column of a whole COPY', async () => {
		await expect(linesOf([copyOutput(ROWS, { trailer: false })])).rejects.toThrow(/middle of its rows/);
		await expect(linesOf([copyOutput(ROWS).subarray(0, 30)])).rejects.toThrow(/middle of its rows/);
		await expect(linesOf([copyOutput(ROWS, { fields: 2 })])).rejects.toThrow(/2 fields/);
		await expect(linesOf([copyOutput(['{}', null])])).rejects.toThrow(/without its JSON/);
		await expect(linesOf([Buffer.from('id\tname\n1\tZoé\n')])).rejects.toThrow(/binary format/);
		await expect(linesOf([Buffer.alloc(0)])).rejects.toThrow(/middle of its rows/);
	});
});
