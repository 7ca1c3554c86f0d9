import { describe, expect, it } from 'vitest';
import { allowedEntry, externalUrlProblem, isInternalAddress } from './remote';

describe('isInternalAddress', () => {
	it.each([
		'127.0.0.1',
		'10.1.2.3',
		'172.16.0.1',
		'192.168.1.1',
		'169.254.169.254',
		'0.0.0.0',
		'100.64.0.1',
		'::1',
		'::',
		'fe80::1',
		'fd00::1',
		'::ffff:127.0.0.1',
		'::ffff:169.254.169.254'
	])('refuses %s', (address) => expect(isInternalAddress(address)).toBe(true));
	it.each(['151.101.2.208', '8.8.8.8', '2a04:4e42::208'])('allows %s', (address) =>
		expect(isInternalAddress(address)).toBe(false)
	);
});

describe('allowedEntry', () => {
	const hosts = ['images.unsplash.com', '127.0.0.1:9000'];
	it('matches a listed host on its default port only', () => {
		expect(allowedEntry(new URL('https://images.unsplash.com/x'), hosts)).toBe('images.unsplash.com');
		expect(allowedEntry(new URL('https://images.unsplash.com:8443/x'), hosts)).toBeNull();
		expect(allowedEntry(new URL('https://evil.images.unsplash.com/x'), hosts)).toBeNull();
	});
	it('matches host:port entries exactly', () => {
		expect(allowedEntry(new URL('http://127.0.0.1:9000/a.jpg'), hosts)).toBe('127.0.0.1:9000');
		expect(allowedEntry(new URL('http://127.0.0.1:9001/a.jpg'), hosts)).toBeNull();
		expect(allowedEntry(new URL('http://127.0.0.1/a.jpg'), hosts)).toBeNull();
	});
});

describe('externalUrlProblem', () => {
	const hosts = ['images.unsplash.com'];
	it('accepts an https URL on a listed host', () => {
		expect(externalUrlProblem('https://images.unsplash.com/photo-1?w=800', hosts)).toBeNull();
	});
	it.each([
		['not a URL', 'pas une adresse'],
		['another scheme', 'ftp://images.unsplash.com/x'],
		['javascript:', 'javascript:alert(1)'],
		['data:', 'data:image/png;base64,AAAA'],
		['an unlisted host', 'https://example.com/x.jpg'],
		['the metadata address', 'http://169.254.169.254/latest/meta-data'],
		['loopback', 'http://127.0.0.1/x'],
		['credentials', 'https://user:pw@images.unsplash.com/x']
	])('refuses %s', (_, value) => {
		expect(externalUrlProblem(value, hosts)).toEqual(expect.any(String));
	});
});
