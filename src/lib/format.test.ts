import { describe, expect, it } from 'vitest';
import { countOf, duration, fileSize, siret, videoTime } from './format';

describe('format', () => {
	it('puts the singular for 0 and 1, the plural from 2', () => {
		expect(countOf(0, 'an')).toBe('0 an');
		expect(countOf(1, 'an')).toBe('1 an');
		expect(countOf(12, 'an')).toBe('12 ans');
		expect(countOf(3, 'personne')).toBe('3 personnes');
		expect(countOf(2, 'travail', 'travaux')).toBe('2 travaux');
		expect(countOf(1500, 'module')).toBe('1\u202f500 modules');
	});

	it('prints a SIRET in its groups, and leaves anything else as it is', () => {
		expect(siret('73282932000074')).toBe('732 829 320 00074');
		expect(siret('732 829 320 00074')).toBe('732 829 320 00074');
		expect(siret('1234')).toBe('1234');
	});

	it('says a duration in hours and minutes', () => {
		expect(duration(45)).toBe('45 min');
		expect(duration(60)).toBe('1 h');
		expect(duration(390)).toBe('6 h 30');
		expect(duration(65)).toBe('1 h 05');
	});

	it('says a place in a video and a file size as people read them', () => {
		expect(videoTime(252)).toBe('4 min 12');
		expect(videoTime(45.9)).toBe('45 s');
		expect(videoTime(3725)).toBe('1 h 02 min 05');
		expect(fileSize(608)).toBe('608 o');
		expect(fileSize(1.4 * 1024 * 1024)).toBe('1,4 Mo');
		expect(fileSize(12 * 1024)).toBe('12 Ko');
	});
});
