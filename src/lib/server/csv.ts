/**
 * CSV for spreadsheets: UTF-8 with a BOM (so Excel reads accents), `;` between cells (what Excel expects in a
 * French locale), and every text cell that a spreadsheet would read as a formula defused with a leading `'`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
	if (value === null || value === undefined) return '';
	let text = String(value);
	if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
	return /[;"\r\n,]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: (string | number | boolean | null | undefined)[][]): string {
	const lines = [header, ...rows].map((row) => row.map(csvCell).join(';'));
	return '\uFEFF' + lines.join('\r\n') + '\r\n';
}

/**
 * The same CSV as `toCsv`, written as its rows come: `batches` yields rows a batch at a time (a walk by keys through a
 * table, say), and the stream asks for the next batch only when the client has taken the last one — memory holds a
 * batch, whatever the export's length, and the first bytes leave before the last row is read. A client that goes
 * away stops the walk (`return()` on the iterator).
 */
export function csvStream(
	header: string[],
	batches:
		| AsyncIterable<(string | number | boolean | null | undefined)[][]>
		| Iterable<(string | number | boolean | null | undefined)[][]>
): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	const iterator =
		Symbol.asyncIterator in batches ? batches[Symbol.asyncIterator]() : batches[Symbol.iterator]();
	const line = (row: (string | number | boolean | null | undefined)[]) => row.map(csvCell).join(';') + '\r\n';
	return new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(encoder.encode('\uFEFF' + line(header)));
		},
		async pull(controller) {
			const next = await iterator.next();
			if (next.done) controller.close();
			else controller.enqueue(encoder.encode(next.value.map(line).join('')));
		},
		async cancel() {
			await iterator.return?.();
		}
	});
}
