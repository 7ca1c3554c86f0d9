/**
 * The security headers of every response (SEED.md part 5, CONTRACT §2), built from configuration in one place.
 * Used by hooks.server.ts for everything SvelteKit renders and by the server entry for static files, which
 * adapter-node serves before any hook runs.
 */
import { business } from '$content/showcase/business';
import type { Config } from '../config';

const STRIPE_JS = 'https://js.stripe.com';
const STRIPE_API = 'https://api.stripe.com';
const STRIPE_HOOKS = 'https://hooks.stripe.com';

type Directives = Record<string, string[]>;

type CspConfig = Pick<Config, 'imageRemoteHosts' | 'cmsImageHost' | 'storage' | 'origin'> &
	Partial<Pick<Config, 'siteMode'>>;

/** Showcase mode: the one page with the (consent-gated) map, and the map's host, from the company file. */
export const MAP_PAGES: ReadonlySet<string> = new Set(['/contact']);
export const MAP_ORIGIN = new URL(business.map.embedUrl).origin;

function storageOrigin(config: CspConfig): string | null {
	return config.storage.driver === 's3' ? config.storage.endpoint.origin : null;
}

/** A host from IMAGE_REMOTE_HOSTS as a CSP source: https by default, and the exact origin when a port is given. */
function hostSource(host: string): string {
	return /:\d+$/.test(host) ? `http://${host} https://${host}` : `https://${host}`;
}

/**
 * The policy of one response. Showcase mode has no storage, no payments and no CMS (SEED.md part 1, "Later
 * revision"): its policy lists none of their hosts, and allows the map's host in frames on the map's page only
 * (`path`; none given: no map).
 */
export function cspDirectives(
	config: CspConfig,
	scriptSrc: string[] = ["'self'"],
	path?: string
): Directives {
	const showcase = config.siteMode === 'showcase';
	const storage = showcase ? null : storageOrigin(config);
	const imageHosts = [
		...config.imageRemoteHosts,
		...(config.cmsImageHost && !showcase ? [config.cmsImageHost] : [])
	];
	const payments = showcase ? [] : [STRIPE_JS, STRIPE_HOOKS];
	const directives: Directives = {
		'default-src': ["'self'"],
		'script-src': scriptSrc,
		// Svelte writes style attributes (style:, transitions); styles cannot run code, scripts stay nonce-only.
		'style-src': ["'self'", "'unsafe-inline'"],
		// blob: lets the admin preview a file before uploading it.
		'img-src': [
			"'self'",
			'blob:',
			...imageHosts.flatMap((h) => hostSource(h).split(' ')),
			...(storage ? [storage] : [])
		],
		'font-src': ["'self'"],
		'connect-src': ["'self'", ...(storage ? [storage] : []), ...(showcase ? [] : [STRIPE_API])],
		// 'self': the admin's e-mail previews are shown in a frame of this site.
		'frame-src': ["'self'", ...payments, ...(showcase && path && MAP_PAGES.has(path) ? [MAP_ORIGIN] : [])],
		'object-src': ["'none'"],
		'form-action': ["'self'"],
		'base-uri': ["'self'"],
		'frame-ancestors': ["'self'"],
		'manifest-src': ["'self'"],
		'worker-src': ["'self'"]
	};
	if (config.origin.protocol === 'https:') directives['upgrade-insecure-requests'] = [];
	return directives;
}

export function serializeCsp(directives: Directives): string {
	return Object.entries(directives)
		.map(([name, sources]) => [name, ...new Set(sources)].join(' '))
		.join('; ');
}

/** The script-src sources SvelteKit put in a page's policy (its nonce), or null when it set none. */
export function scriptSrcFrom(policy: string | null): string[] | null {
	if (!policy) return null;
	for (const directive of policy.split(';')) {
		const [name, ...sources] = directive.trim().split(/\s+/);
		if (name === 'script-src') return sources;
	}
	return null;
}

export type HeaderConfig = CspConfig;

export interface SecurityHeaders {
	[name: string]: string | undefined;
	'content-security-policy': string;
	'strict-transport-security'?: string;
}

/** Every security header, with the given script sources (a page's nonce) or 'self' alone, for the page at `path`. */
export function securityHeaders(config: HeaderConfig, scriptSrc?: string[], path?: string): SecurityHeaders {
	const headers: SecurityHeaders = {
		'x-content-type-options': 'nosniff',
		'x-frame-options': 'SAMEORIGIN',
		'referrer-policy': 'strict-origin-when-cross-origin',
		'permissions-policy': 'camera=(), microphone=(), geolocation=()',
		'cross-origin-opener-policy': 'same-origin',
		// A function, so that no `$` in a source is read as a replacement pattern.
		'content-security-policy': policyTemplate(config, path).replace(SCRIPT_SOURCES, () =>
			scriptSrc ? [...new Set(scriptSrc)].join(' ') : "'self'"
		)
	};
	if (config.origin.protocol === 'https:') {
		headers['strict-transport-security'] = 'max-age=63072000; includeSubDomains';
	}
	return headers;
}

/**
 * The policy is the same for every response of one configuration but for its script sources (a page's nonce) and
 * whether the page has the map: serialised once per configuration and kind of page, with a mark where the script
 * sources go. Every response asks for it; building it each time was 4 % of a small request's CPU.
 */
const SCRIPT_SOURCES = '\u0000script-src\u0000';
const templates = new WeakMap<HeaderConfig, Map<boolean, string>>();

function policyTemplate(config: HeaderConfig, path: string | undefined): string {
	const mapPage = path !== undefined && MAP_PAGES.has(path);
	let byPage = templates.get(config);
	if (!byPage) templates.set(config, (byPage = new Map()));
	let template = byPage.get(mapPage);
	if (template === undefined) {
		template = serializeCsp(cspDirectives(config, [SCRIPT_SOURCES], mapPage ? path : undefined));
		byPage.set(mapPage, template);
	}
	return template;
}
