import { describe, expect, it } from 'vitest';
import { transcriptOf } from './transcript';

describe('transcriptOf', () => {
	it('reads the cues as paragraphs: markup and references gone, notes and styles left out, a pause begins a new one', () => {
		const vtt = [
			'\uFEFFWEBVTT - Filmer un chantier',
			'',
			'NOTE written by the trainer',
			'',
			'STYLE',
			'::cue { color: yellow }',
			'',
			'1',
			'00:00:01.000 --> 00:00:03.500 align:start',
			'<v Julie>Bonjour à tous,</v>',
			'',
			'00:03.500 --> 00:06.000',
			'aujourd’hui on filme <i>un chantier</i>',
			'de A &amp; B.',
			'',
			'00:06.000 --> 00:07.000',
			'de A &amp; B.',
			'',
			'00:01:10.000 --> 00:01:12.000',
			'Après la pause&#8239;: le <00:01:11.000>cadrage.'
		].join('\r\n');
		expect(transcriptOf(vtt)).toEqual([
			{ at: 1, text: 'Bonjour à tous, aujourd’hui on filme un chantier de A & B.' },
			{ at: 70, text: 'Après la pause\u202f: le cadrage.' }
		]);
	});

	it('ends a long paragraph at the end of a sentence', () => {
		const sentence =
			'Une phrase assez longue pour remplir un paragraphe à elle seule, ou presque, sans pause.';
		const cues = Array.from(
			{ length: 8 },
			(_, i) =>
				`00:00:${String(i * 5).padStart(2, '0')}.000 --> 00:00:${String(i * 5 + 5).padStart(2, '0')}.000\n${sentence} ${i}.`
		);
		const paragraphs = transcriptOf(['WEBVTT', ...cues].join('\n\n'));
		expect(paragraphs.length).toBeGreaterThan(1);
		expect(paragraphs.every((p) => /\.$/.test(p.text))).toBe(true);
		expect(paragraphs[1]!.at).toBeGreaterThan(0);
	});

	it('gives nothing for what has no cue, and skips a timing it cannot read', () => {
		expect(transcriptOf('WEBVTT\n')).toEqual([]);
		expect(
			transcriptOf('WEBVTT\n\n99:99 --> 00:01.000\nIllisible\n\n00:02.000 --> 00:03.000\nLisible')
		).toEqual([{ at: 2, text: 'Lisible' }]);
	});
});
