import { describe, expect, it } from 'vitest';
import { isForeignWrite } from './same-origin';

const own = 'https://atelier.example';
const request = (method: string, origin?: string) =>
	new Request(`${own}/api/admin/pages/home`, {
		method,
		headers: origin === undefined ? {} : { origin }
	});

describe('isForeignWrite', () => {
	it('refuses every write from another origin, a null one included', () => {
		for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
			for (const origin of ['https://evil.example', 'null', 'http://atelier.example', `${own}:8443`, ''])
				expect(isForeignWrite(request(method, origin), own), `${method} ${origin}`).toBe(true);
	});

	it('lets the site’s own writes, reads from anywhere and writes without Origin through', () => {
		for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
			expect(isForeignWrite(request(method, own), own)).toBe(false);
			expect(isForeignWrite(request(method), own)).toBe(false);
		}
		for (const method of ['GET', 'HEAD', 'OPTIONS'])
			expect(isForeignWrite(request(method, 'https://evil.example'), own)).toBe(false);
	});
});
