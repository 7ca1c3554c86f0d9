import { describe, expect, it } from 'vitest';
import { sourceOf } from './origin';

const none = { sourcePage: null, referrerHost: null, utmSource: null, utmMedium: null, utmCampaign: null };

describe('sourceOf', () => {
	it('names the site and the campaign, or nothing', () => {
		expect(sourceOf({ ...none, referrerHost: 'google.fr', utmCampaign: 'printemps' })).toBe(
			'google.fr · campagne printemps'
		);
		expect(sourceOf({ ...none, utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'printemps' })).toBe(
			'campagne printemps (newsletter, email)'
		);
		expect(sourceOf({ ...none, utmSource: 'facebook' })).toBe('source facebook');
		expect(sourceOf({ ...none, sourcePage: '/devis' })).toBeNull();
	});
});
