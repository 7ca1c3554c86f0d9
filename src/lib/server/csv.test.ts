import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('CSV export', () => {
	it.each([
		['=HYPERLINK("http://evil.example","clic")', `"'=HYPERLINK(""http://evil.example"",""clic"")"`],
		['+33 6 12 34 56 78', `'+33 6 12 34 56 78`],
		['-2+3', `'-2+3`],
		['@SUM(A1)', `'@SUM(A1)`],
		['\tcmd', `'\tcmd`],
		['\rcmd', `"'\rcmd"`],
		['Bonjour; ça va ?', '"Bonjour; ça va ?"'],
		['ligne 1\nligne 2', '"ligne 1\nligne 2"'],
		['simple', 'simple']
	])('writes %j as %j', (input, expected) => {
		expect(csvCell(input)).toBe(expected);
	});

	it('starts with a BOM and a header row, one line per row', () => {
		const csv = toCsv(
			['nom', 'message'],
			[
				['Zoé', '=1+1'],
				['Luc', null]
			]
		);
		expect(csv.startsWith('\uFEFFnom;message\r\n')).toBe(true);
		expect(csv.split('\r\n')).toEqual(['\uFEFFnom;message', "Zoé;'=1+1", 'Luc;', '']);
	});
});
