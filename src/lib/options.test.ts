import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { labelOf, optionsOf, valuesOf } from './options';

describe('options written as { value: label }', () => {
	const trades = optionsOf({
		macon: 'Maçon',
		'tailleur-de-pierre': 'Tailleur de pierre',
		autre: 'Autre métier'
	});

	it('keeps the order written, each value with its label', () => {
		expect(trades).toEqual([
			{ value: 'macon', label: 'Maçon' },
			{ value: 'tailleur-de-pierre', label: 'Tailleur de pierre' },
			{ value: 'autre', label: 'Autre métier' }
		]);
	});

	it('gives z.enum the values, and nothing else', () => {
		const trade = z.enum(valuesOf(trades));
		expect(trade.parse('tailleur-de-pierre')).toBe('tailleur-de-pierre');
		expect(trade.safeParse('Maçon').success).toBe(false);
	});

	it('labels a stored value; one no longer offered as it is, none as nothing', () => {
		expect(labelOf(trades, 'macon')).toBe('Maçon');
		expect(labelOf(trades, 'charpentier')).toBe('charpentier');
		expect(labelOf(trades, null)).toBe('');
	});
});
