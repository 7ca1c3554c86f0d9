import { describe, expect, it } from 'vitest';
import { parseProxyUrl } from './proxy-url';

describe('parseProxyUrl', () => {
	it('takes a page’s URL apart, and refuses what no page asks', () => {
		expect(parseProxyUrl('/api/img/hero')).toMatchObject({ key: 'hero', width: null, version: null });
		expect(parseProxyUrl('/api/img/hero?w=800&v=abc_DEF-12')).toMatchObject({
			key: 'hero',
			width: 800,
			version: 'abc_DEF-12'
		});
		for (const refused of [
			'/api/img/Hero',
			'/api/img/hero?w=801',
			'/api/img/hero?w=800&w=800',
			'/api/img/hero?x=1',
			'/api/img/hero?v=a/b',
			'/api/img/' + 'a'.repeat(65)
		])
			expect(parseProxyUrl(refused), refused).toBeNull();
	});

	it('remembers a URL’s parts (the same object), but not a long one, nor without bound', () => {
		const first = parseProxyUrl('/api/img/about?w=480');
		expect(parseProxyUrl('/api/img/about?w=480')).toBe(first);
		// A client's own long URL (a page's are at most 115 characters) is parsed each time, never kept.
		const long = `/api/img/about?v=${'a'.repeat(32)}&${'x'.repeat(300)}`;
		expect(parseProxyUrl(long)).toBeNull();
		// Thousands of other URLs: the memory is dropped when full, and every answer stays right.
		for (let i = 0; i < 3000; i++) expect(parseProxyUrl(`/api/img/k${i}`)).toMatchObject({ key: `k${i}` });
		expect(parseProxyUrl('/api/img/about?w=480')).toMatchObject({ key: 'about', width: 480 });
	});
});
