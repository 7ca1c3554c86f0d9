import { describe, expect, it } from 'vitest';
import { checkFormToken, issueFormToken } from './form-token';

const secret = 's'.repeat(32);

describe('form time trap', () => {
	it('accepts a token shown 3 s or more before', () => {
		const token = issueFormToken(secret, 1_700_000_000_000);
		expect(checkFormToken(secret, token, 1_700_000_003_000)).toBe('ok');
	});
	it('flags a submission under 3 s', () => {
		expect(checkFormToken(secret, issueFormToken(secret, 1_700_000_000_000), 1_700_000_002_999)).toBe(
			'too-fast'
		);
	});
	it('refuses forged, foreign, future or very old tokens', () => {
		const token = issueFormToken(secret, 1_700_000_000_000);
		expect(checkFormToken(secret, token.replace(/^\d+/, '1699999000000'), 1_700_000_010_000)).toBe('invalid');
		expect(checkFormToken('t'.repeat(32), token, 1_700_000_010_000)).toBe('invalid');
		expect(checkFormToken(secret, token, 1_699_999_999_000)).toBe('invalid');
		expect(checkFormToken(secret, token, 1_700_000_000_000 + 25 * 3600 * 1000)).toBe('invalid');
		expect(checkFormToken(secret, 'garbage', 1_700_000_010_000)).toBe('invalid');
	});
});
