import { describe, expect, it } from 'vitest';
import { match } from './uuid';

describe('the uuid param matcher', () => {
	it.each(['0b7d7c2e-4c7a-4f8e-9b1a-2f6d3c4e5a6b', '6F9619FF-8B86-4D11-B42D-00C04FC964FF'])(
		'matches %s',
		(id) => {
			expect(match(id)).toBe(true);
		}
	);

	it.each([
		'',
		'abc',
		'1',
		"1' or 1=1",
		'0b7d7c2e-4c7a-4f8e-9b1a-2f6d3c4e5a6',
		'0b7d7c2e4c7a4f8e9b1a2f6d3c4e5a6b',
		'../etc'
	])('refuses %j', (id) => {
		expect(match(id)).toBe(false);
	});
});
