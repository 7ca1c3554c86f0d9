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
