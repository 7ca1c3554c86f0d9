import { describe, expect, it } from 'vitest';
import { renderMarkdown, slugify } from './markdown';

/** What must never appear in rendered HTML: an element or attribute that can run or load something. */
const DANGEROUS =
	/<script|<iframe|<object|<embed|<svg|<style|<img(?![^>]*src="\/cours\/media\/)|<[a-z][^>]*\son\w+\s*=|href="\s*(javascript|data|vbscript):|src="\s*(javascript|data):/i;

describe('the module Markdown renderer', () => {
	it('renders headings with anchors, lists, tables, code, links and media images', () => {
		const html = renderMarkdown(
			[
				'# Les fondations : béton',
				'',
				'- un',
				'- deux',
				'',
				'| a | b |',
				'|---|---|',
				'| 1 | 2 |',
				'',
				'```',
				'<b>code</b>',
				'```',
				'',
				'[Site](https://exemple.fr) [Page](/contact) [Ancre](#x)',
				'',
				'![Un mur](/cours/media/modules/mur.webp)'
			].join('\n')
		);
		expect(html).toContain('<h1 id="les-fondations-beton">');
		expect(html).toContain('<li>un</li>');
		expect(html).toContain('<table>');
		expect(html).toContain('&lt;b&gt;code&lt;/b&gt;');
		expect(html).toContain('<a href="https://exemple.fr" rel="noopener noreferrer" target="_blank">Site</a>');
		expect(html).toContain('<a href="/contact">Page</a>');
		expect(html).toContain('<img src="/cours/media/modules/mur.webp" alt="Un mur" loading="lazy">');
	});

	it.each([
		['a script tag', '<script>alert(1)</script>'],
		['an onerror handler', '<img src=x onerror=alert(1)>'],
		['a javascript: link', '[clic](javascript:alert(1))'],
		['an encoded javascript: link', '[clic](jav&#x09;ascript:alert(1))'],
		['a javascript: link with spaces and case', '[clic]( JaVaScRiPt:alert(1))'],
		['a data: link', '[clic](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
		['a data: image', '![x](data:image/svg+xml;base64,PHN2Zz4=)'],
		['an image from elsewhere', '![x](https://evil.example/track.gif)'],
		['an image escaping the media route', '![x](/cours/media/../../etc/passwd)'],
		['an HTML comment', '<!-- <script>alert(1)</script> -->'],
		['an autolink to javascript', '<javascript:alert(1)>'],
		['a reference link to javascript', '[clic][x]\n\n[x]: javascript:alert(1)'],
		['nested tricks', '<scr<script>ipt>alert(1)</script>'],
		['an iframe', '<iframe src="https://evil.example"></iframe>'],
		['an svg with onload', '<svg onload=alert(1)>'],
		['a style tag', '<style>body{display:none}</style>']
	])('leaves %s inert', (_name, source) => {
		const html = renderMarkdown(source);
		expect(html).not.toMatch(DANGEROUS);
		// The check itself finds what it looks for.
		expect(`<p>${source}</p>`).toMatch(/<[a-z]/i);
	});

	it('has a danger check that finds live markup', () => {
		for (const live of [
			'<img src=x onerror=alert(1)>',
			'<a href="javascript:x">',
			'<script>',
			'<img src="https://x/y.gif">'
		])
			expect(live).toMatch(DANGEROUS);
	});

	it('labels each table cell with its column, two tables each with their own', () => {
		const html = renderMarkdown(
			[
				'| Finalité | Base légale |',
				'|---|---|',
				'| Devis | Contrat |',
				'',
				'| x | y |',
				'|---|---|',
				'| 1 | 2 |'
			].join('\n')
		);
		expect(html).toContain('<td data-label="Finalité">Devis</td>');
		expect(html).toContain('<td data-label="Base légale">Contrat</td>');
		expect(html).toContain('<td data-label="y">2</td>');
		// A label is an attribute value: markup typed in a header stays escaped text there too.
		const hostile = renderMarkdown('| <b onmouseover=x> |\n|---|\n| v |');
		expect(hostile).toContain('<td data-label="&lt;b onmouseover=x&gt;">v</td>');
		expect(hostile).not.toContain('<b');
	});

	it('makes code blocks reachable by keyboard and named, fenced or indented, their code escaped', () => {
		const fenced = renderMarkdown('```\nnpm run backup -- --verify <fichier>\n```');
		expect(fenced).toMatch(/^<pre tabindex="0" role="group" aria-label="Bloc de code"><code>/);
		expect(fenced).toContain('&lt;fichier&gt;');
		expect(renderMarkdown('Texte\n\n    indenté')).toContain(
			'<pre tabindex="0" role="group" aria-label="Bloc de code"><code>indenté'
		);
		// An inline code span is not a block: no focus stop in the middle of a sentence.
		expect(renderMarkdown('Tapez `npm start`.')).not.toContain('tabindex');
	});

	it('folds accents in slugs', () => {
		expect(slugify('Façades & enduits : l’œuvre')).toBe('facades-enduits-l-oeuvre');
		expect(slugify('  --Été 2026--  ')).toBe('ete-2026');
	});
});

describe('rendering time', () => {
	/** The longest body an article accepts, filled with what makes parsers slow. */
	const LIMIT = 60_000;
	const fill = (unit: string) => unit.repeat(Math.floor(LIMIT / unit.length));
	const timeOf = (source: string) => {
		const started = performance.now();
		renderMarkdown(source);
		return performance.now() - started;
	};
	const ordinary = fill(
		'## Un intertitre\n\nUn paragraphe avec un [lien](/contact), du *gras* et une liste :\n\n- un\n- deux\n\n'
	);

	it('gives every heading a distinct id in one pass: the same text, then -1, -2, even past a heading already so named', () => {
		const html = renderMarkdown('# t\n\n# t-1\n\n# t\n\n# t\n\n# T');
		expect([...html.matchAll(/id="([^"]+)"/g)].map((m) => m[1])).toEqual(['t', 't-1', 't-2', 't-3', 't-4']);
	});

	it.each([
		['the same heading 15,000 times', fill('# t\n')],
		['headings that all slug alike', fill('# é!\n')],
		['quotes nested as deep as the text goes', fill('>')],
		[
			'lists nested as deep as the text goes',
			fill('  - a\n')
				.split('\n')
				.map((line, i) => ' '.repeat(i % 200) + line)
				.join('\n')
				.slice(0, LIMIT)
		],
		['a chain of links', fill('[a](/b)')],
		['unclosed link brackets', fill('[a](')],
		['unclosed emphasis', fill('*_')],
		['backticks of every length', fill('`a``')],
		['reference definitions', fill('[a]: /b\n')],
		['a table of one long row', `| a |\n|---|\n${fill('| b ')}`.slice(0, LIMIT)],
		[
			'a table of a thousand columns',
			`${'| a '.repeat(1000)}|\n${'|---'.repeat(1000)}|\n${fill('| b ')}`.slice(0, LIMIT)
		]
	])('%s renders within ten times an ordinary body of the same length', (_name, source) => {
		timeOf(ordinary); // warm-up
		const baseline = Math.max(timeOf(ordinary), timeOf(ordinary));
		expect(source.length).toBeLessThanOrEqual(LIMIT);
		expect(timeOf(source)).toBeLessThan(10 * baseline + 20);
	});
});
