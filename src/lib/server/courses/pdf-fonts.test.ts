import { describe, expect, it } from 'vitest';
import { printable, runs } from './pdf-fonts';

const arabic = (c: number) => (c >= 0x0600 && c <= 0x06ff ? 'arabic' : null);

describe('runs', () => {
	it('keeps a right-to-left name of several words in one run, its spaces with it', () => {
		expect(runs('à محمد بن علي, né', 'inter', arabic)).toEqual([
			{ text: 'à ', font: 'inter' },
			{ text: 'محمد بن علي', font: 'arabic' },
			{ text: ', né', font: 'inter' }
		]);
	});

	it('leaves a space between two faces, and at either end, in the document’s face', () => {
		expect(runs(' علي  Léa ', 'inter', arabic)).toEqual([
			{ text: ' ', font: 'inter' },
			{ text: 'علي', font: 'arabic' },
			{ text: '  Léa ', font: 'inter' }
		]);
		expect(runs('', 'inter', arabic)).toEqual([]);
	});
});

describe('printable', () => {
	it('keeps what a face draws, drops an accent no face has, and says « ? » for the rest', () => {
		const latin = (c: string) => /[a-zA-Z ]/.test(c);
		expect(printable('Zoë 😀', latin)).toBe('Zoe ?');
		expect(printable('a\u202fb', latin)).toBe('a b');
	});
});
