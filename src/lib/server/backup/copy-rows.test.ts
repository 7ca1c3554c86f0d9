import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CountedRows, wholeRowBatches } from './copy-rows';

/** COPY's text for three rows, escapes included: a newline, a tab and a backslash inside values, a null, an emoji. */
const ROWS = [
	'1\tZoé\t\\N\n',
	'2\tune ligne\\nune autre\\tet \\\\ fin\t2026-03-29 01:30:00+00\n',
	'3\t🧱\t\\N\n'
];
const TEXT = Buffer.from(ROWS.join(''));

/** The text cut at every given offset: a row, or a character, split across chunks. */
const cutAt = (buffer: Buffer, offsets: number[]) =>
	[0, ...offsets, buffer.length].slice(1).map((end, i, ends) => buffer.subarray(i ? ends[i - 1] : 0, end));

async function counted(chunks: Buffer[]): Promise<{ text: Buffer; rows: number }> {
	const rows = new CountedRows();
	const out: Buffer[] = [];
	await pipeline(
		Readable.from(chunks),
		rows,
		new Writable({
			write(chunk: Buffer, _encoding, done) {
				out.push(chunk);
				done();
			}
		})
	);
	return { text: Buffer.concat(out), rows: rows.rows };
}

describe('CountedRows', () => {
	it('passes every byte on and counts one row a line, however the chunks fall', async () => {
		for (const offsets of [[], [1], [5, 6, 7], [TEXT.indexOf(0xf0) + 1], [...TEXT.keys()].slice(1)]) {
			const { text, rows } = await counted(cutAt(TEXT, offsets));
			expect(text.equals(TEXT), String(offsets)).toBe(true);
			expect(rows).toBe(3);
		}
		expect((await counted([])).rows).toBe(0);
	});

	it('fails when the rows end inside a row', async () => {
		await expect(counted([TEXT.subarray(0, TEXT.length - 1)])).rejects.toThrow(/middle of a row/);
	});
});

describe('wholeRowBatches', () => {
	const batchesOf = async (chunks: Buffer[], bytes: number) => {
		const batches: Buffer[] = [];
		for await (const batch of wholeRowBatches(Readable.from(chunks), bytes))
			batches.push(Buffer.concat(batch));
		return batches;
	};

	it('gives every byte once, in order, each batch whole rows of about the size asked', async () => {
		const many = Buffer.from(Array.from({ length: 500 }, (_, i) => ROWS[i % 3]).join(''));
		for (const size of [1, 7, 64, 1000]) {
			const chunks = cutAt(
				many,
				[...many.keys()].filter((i) => i % size === 0 && i > 0)
			);
			const batches = await batchesOf(chunks, 4096);
			expect(Buffer.concat(batches).equals(many), `chunks of ${size}`).toBe(true);
			for (const batch of batches.slice(0, -1)) {
				expect(batch.at(-1)).toBe(0x0a);
				expect(batch.length).toBeGreaterThanOrEqual(4096 - 200);
			}
		}
	});

	it('hands on a row longer than a batch whole, and a last row without its newline as it is', async () => {
		const long = Buffer.from(`1\t${'x'.repeat(10_000)}\n2\tcourt`);
		const batches = await batchesOf(cutAt(long, [100, 5000, 9000]), 1024);
		expect(batches.map((b) => b.toString())).toEqual([`1\t${'x'.repeat(10_000)}\n`, '2\tcourt']);
	});
});
