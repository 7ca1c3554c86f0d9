import { describe, expect, it } from 'vitest';
import { describeDevice, describeNetwork, keptUserAgent, networkOf } from './devices';

describe('a session’s device and network', () => {
	it('names the browser and the system from common User-Agents', () => {
		const cases: [string, string][] = [
			[
				'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
				'Chrome sur Windows'
			],
			['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox sur Linux'],
			[
				'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
				'Safari sur iPhone'
			],
			[
				'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
				'Edge sur Mac'
			],
			[
				'Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
				'Samsung Internet sur Android'
			],
			['curl/8.5.0', 'Appareil inconnu']
		];
		for (const [userAgent, expected] of cases) expect(describeDevice(userAgent), userAgent).toBe(expected);
		expect(describeDevice(null)).toBe('Appareil inconnu');
	});

	it('keeps at most 300 characters of a User-Agent, without control characters', () => {
		expect(keptUserAgent('a\u0000b\nc')).toBe('abc');
		expect(keptUserAgent('x'.repeat(1000))).toHaveLength(300);
		expect(keptUserAgent('   ')).toBeNull();
		expect(keptUserAgent(undefined)).toBeNull();
	});

	it('cuts an address to its network, IPv4 and IPv6, and names private ones as local', () => {
		expect(networkOf('203.0.113.42')).toBe('203.0.113.0/24');
		expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
		expect(networkOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1::/48');
		expect(networkOf('2001:db8::1')).toBe('2001:db8:0::/48');
		expect(networkOf('::1')).toBe('0:0:0::/48');
		expect(networkOf('pas une adresse')).toBeNull();
		expect(networkOf(undefined)).toBeNull();
		expect(describeNetwork('192.168.1.0/24')).toBe('réseau local (192.168.1.0/24)');
		expect(describeNetwork('127.0.0.0/24')).toBe('réseau local (127.0.0.0/24)');
		expect(describeNetwork('203.0.113.0/24')).toBe('réseau 203.0.113.0/24');
		expect(describeNetwork(null)).toBe('réseau inconnu');
	});
});
