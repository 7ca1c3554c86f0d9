/**
 * What /profil says about each session: the device, from the User-Agent the browser sent at sign-in, and the
 * network it came from — the address cut to its network (a /24 in IPv4, a /48 in IPv6), which says roughly where
 * without naming anyone, and without asking any third-party service.
 */
import { isIP } from 'node:net';

const MAX_USER_AGENT = 300;

/** The User-Agent as kept: at most 300 characters, control characters dropped. */
export function keptUserAgent(userAgent: string | null | undefined): string | null {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
	const clean = (userAgent ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
	return clean ? clean.slice(0, MAX_USER_AGENT) : null;
}

const BROWSERS: [RegExp, string][] = [
	[/Edg(?:e|A|iOS)?\//, 'Edge'],
	[/OPR\/|Opera/, 'Opera'],
	[/SamsungBrowser\//, 'Samsung Internet'],
	[/Firefox\/|FxiOS\//, 'Firefox'],
	[/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
	[/Safari\//, 'Safari']
];
const SYSTEMS: [RegExp, string][] = [
	[/iPhone/, 'iPhone'],
	[/iPad/, 'iPad'],
	[/Android/, 'Android'],
	[/Windows/, 'Windows'],
	[/Mac OS X|Macintosh/, 'Mac'],
	[/CrOS/, 'ChromeOS'],
	[/Linux/, 'Linux']
];

/** "Firefox sur Linux", "Safari sur iPhone"; "Appareil inconnu" when the browser said nothing we know. */
export function describeDevice(userAgent: string | null): string {
	if (!userAgent) return 'Appareil inconnu';
	const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
	const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
	if (browser && system) return `${browser} sur ${system}`;
	return browser ?? system ?? 'Appareil inconnu';
}

/** `203.0.113.0/24`, `2001:db8:1::/48`; null for anything that is not an address. */
export function networkOf(address: string | null | undefined): string | null {
	if (!address) return null;
	const mapped = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
	if (isIP(mapped) === 4) return `${mapped.split('.').slice(0, 3).join('.')}.0/24`;
	if (isIP(mapped) !== 6) return null;
	const [head = '', tail = ''] = mapped.toLowerCase().split('::');
	const left = head ? head.split(':') : [];
	const right = tail ? tail.split(':') : [];
	const groups = mapped.includes('::')
		? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
		: left;
	const prefix = groups.slice(0, 3).map((g) => g.replace(/^0+(?=.)/, ''));
	return `${prefix.join(':')}::/48`;
}

/** How /profil names a network: the private and loopback ranges as such, others as they are. */
export function describeNetwork(network: string | null): string {
	if (!network) return 'réseau inconnu';
	if (/^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|127\.)/.test(network) || /^(fc|fd|fe80)/i.test(network))
		return `réseau local (${network})`;
	return `réseau ${network}`;
}
