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
});
