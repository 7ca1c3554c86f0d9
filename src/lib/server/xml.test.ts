import { describe, expect, it } from 'vitest';
import { escapeXml } from './xml';

describe('escapeXml', () => {
	it('writes the five characters XML gives a meaning as entities, and nothing else', () => {
		expect(escapeXml(`Léa <Œuvray> & "Dupont" l'aînée`)).toBe(
			'Léa &lt;Œuvray&gt; &amp; &quot;Dupont&quot; l&apos;aînée'
		);
		// An entity already written is text: escaped again, never taken for markup.
		expect(escapeXml('&amp;')).toBe('&amp;amp;');
		expect(escapeXml('')).toBe('');
	});

	it('leaves out what XML 1.0 forbids, a pasted line break as a space, and keeps what it allows', () => {
		expect(escapeXml('Numérique\u000bSAS\u000c!')).toBe('Numérique SAS !');
		expect(escapeXml('a\u0000b\u0001c\u001fd\ufffee\uffff')).toBe('abcde');
		expect(escapeXml('lone \ud800 high, lone \udc00 low, pair 🧱')).toBe('lone  high, lone  low, pair 🧱');
		expect(escapeXml('tab\tline\nreturn\r\u0085\u2028')).toBe('tab\tline\nreturn\r\u0085\u2028');
	});
});
