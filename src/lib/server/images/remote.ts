/**
 * Fetching images from the outside without becoming a proxy into the inside (SSRF): the host must be listed in
 * IMAGE_REMOTE_HOSTS when the URL is saved and again at every fetch; the address it resolves to must not be
 * loopback, private, link-local or otherwise internal — unless the listed host is that literal address; every
 * redirect (3 at most) is checked the same way; only image/* answers of 20 MB at most are passed on.
 */
import { lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Readable, Transform, pipeline } from 'node:stream';
import { Agent, fetch, type Response as UndiciResponse } from 'undici';

export const MAX_REMOTE_BYTES = 20 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const CONNECT_TIMEOUT_MS = 5_000;
const TOTAL_TIMEOUT_MS = 30_000;
/**
 * An upstream that stops sending — before its headers, or between two chunks of its body — is given up after
 * this long: the visitor's response is aborted instead of hanging, and the proxy falls back for a while.
 */
export const STALL_TIMEOUT_MS = 10_000;
const timeouts = {
	headersTimeout: STALL_TIMEOUT_MS,
	bodyTimeout: STALL_TIMEOUT_MS
};

export class RemoteImageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'RemoteImageError';
	}
}

const internal = new BlockList();
for (const [net, prefix] of [
	['0.0.0.0', 8],
	['10.0.0.0', 8],
	['100.64.0.0', 10],
	['127.0.0.0', 8],
	['169.254.0.0', 16],
	['172.16.0.0', 12],
	['192.0.0.0', 24],
	['192.0.2.0', 24],
	['192.168.0.0', 16],
	['198.18.0.0', 15],
	['198.51.100.0', 24],
	['203.0.113.0', 24],
	['224.0.0.0', 4],
	['240.0.0.0', 4]
] as const) {
	internal.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
	['::', 128],
	['::1', 128],
	['fc00::', 7],
	['fe80::', 10],
	['ff00::', 8],
	['64:ff9b::', 96],
	['2001:db8::', 32]
] as const) {
	internal.addSubnet(net, prefix, 'ipv6');
}

/** True for any address an outside image must not come from. */
export function isInternalAddress(address: string): boolean {
	const family = isIP(address);
	if (family === 4) return internal.check(address, 'ipv4');
	if (family === 6) {
		const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
		if (mapped) return internal.check(mapped[1]!, 'ipv4');
		return internal.check(address, 'ipv6');
	}
	return true;
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');

/** The entry of the allow-list that covers this URL, or null. `host` entries cover the default port only. */
export function allowedEntry(url: URL, allowedHosts: readonly string[]): string | null {
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
	if (url.username || url.password) return null;
	const host = url.hostname.toLowerCase();
	const port = url.port || defaultPort(url.protocol);
	for (const entry of allowedHosts) {
		const match = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase());
		if (!match) continue;
		const [, entryHost, entryPort] = match;
		if (entryHost === host && (entryPort ?? defaultPort(url.protocol)) === port) return entry;
	}
	return null;
}

/** Why an external image URL may not be saved, or null when it may. */
export function externalUrlProblem(value: string, allowedHosts: readonly string[]): string | null {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return 'L’adresse de l’image n’est pas une URL valide.';
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'L’adresse doit commencer par https://.';
	if (url.username || url.password) return 'L’adresse ne doit pas contenir d’identifiants.';
	if (!allowedEntry(url, allowedHosts)) {
		return `L’hôte ${url.host} n’est pas autorisé (hôtes autorisés : ${allowedHosts.join(', ') || 'aucun'}).`;
	}
	// A literal address passes only when it is itself listed (as above); a name is checked when it resolves.
	return null;
}

/** Connections refuse internal addresses found by DNS; literal addresses are checked before connecting. */
const guardedAgent = new Agent({
	...timeouts,
	connect: {
		timeout: CONNECT_TIMEOUT_MS,
		lookup: (hostname, options, callback) => {
			lookup(hostname, { ...options, all: true }, (error, addresses) => {
				if (error) return callback(error, '', 4);
				// With `all: true` Node answers the list; its callback's type names only the single-address form.
				const list = addresses as unknown as { address: string; family: number }[];
				const bad = list.find((a) => isInternalAddress(a.address));
				if (bad) return callback(new RemoteImageError(`${hostname} resolves to an internal address`), '', 4);
				if ((options as { all?: boolean }).all)
					// The same callback called as `all: true` asks (http's own lookup does so).
					return (callback as unknown as (e: null, a: unknown) => void)(null, list);
				callback(null, list[0]!.address, list[0]!.family);
			});
		}
	}
});

/** Trusted upstreams (our own storage endpoint): timeouts, no address filtering. */
const trustedAgent = new Agent({ ...timeouts, connect: { timeout: CONNECT_TIMEOUT_MS } });

export interface UpstreamImage {
	status: number;
	contentType: string;
	contentLength: number | null;
	etag: string | null;
	lastModified: string | null;
	body: Readable;
}

/** Stops a body that turns out larger than announced. */
function capped(limit: number): Transform {
	let seen = 0;
	return new Transform({
		transform(chunk: Buffer, _encoding, callback) {
			seen += chunk.length;
			if (seen > limit) callback(new RemoteImageError(`upstream body over ${limit} bytes`));
			else callback(null, chunk);
		}
	});
}

function toUpstream(response: UndiciResponse): UpstreamImage {
	const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
	if (!contentType.startsWith('image/') || contentType === 'image/svg+xml') {
		void response.body?.cancel();
		throw new RemoteImageError(`upstream answered ${contentType || 'no content type'}, not an image`);
	}
	const length = response.headers.get('content-length');
	const contentLength = length && /^\d+$/.test(length) ? Number(length) : null;
	if (contentLength !== null && contentLength > MAX_REMOTE_BYTES) {
		void response.body?.cancel();
		throw new RemoteImageError('upstream image over 20 MB');
	}
	if (!response.body) throw new RemoteImageError('upstream sent no body');
	// pipeline, not pipe: an upstream cut or stalled mid-body errors the stream handed on (which aborts the
	// visitor's response) instead of emitting an error nobody listens to, which would stop the process.
	const body = pipeline(
		Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
		capped(MAX_REMOTE_BYTES),
		() => {}
	);
	return {
		status: response.status,
		contentType,
		contentLength,
		etag: response.headers.get('etag'),
		lastModified: response.headers.get('last-modified'),
		body
	};
}

/** A 304: some servers omit the ETag on it, but the validator the client sent is by definition the current one. */
function notModified(response: UndiciResponse, ifNoneMatch: string | null | undefined): UpstreamImage {
	void response.body?.cancel();
	const etag = response.headers.get('etag') ?? ifNoneMatch ?? null;
	return {
		status: 304,
		contentType: '',
		contentLength: null,
		etag,
		lastModified: null,
		body: Readable.from([])
	};
}

export interface FetchOptions {
	ifNoneMatch?: string | null;
}

async function get(url: URL, agent: Agent, { ifNoneMatch }: FetchOptions) {
	return fetch(url, {
		redirect: 'manual',
		dispatcher: agent,
		signal: AbortSignal.timeout(TOTAL_TIMEOUT_MS),
		headers: {
			accept: 'image/avif,image/webp,image/*;q=0.8',
			...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {})
		}
	});
}

/** Fetches an external image under the rules above. A 304 comes back with an empty body. */
export async function fetchExternalImage(
	value: string,
	allowedHosts: readonly string[],
	options: FetchOptions = {}
): Promise<UpstreamImage> {
	let url = new URL(value);
	for (let hop = 0; ; hop++) {
		const problem = externalUrlProblem(url.href, allowedHosts);
		if (problem) throw new RemoteImageError(problem);
		const literal = url.hostname.replace(/^\[|\]$/g, '');
		// A literal address skips DNS, so the lookup hook cannot see it: it is allowed only when listed as such.
		const agent = isIP(literal) ? trustedAgent : guardedAgent;
		const response = await get(url, agent, options);
		if (response.status >= 300 && response.status < 400 && response.status !== 304) {
			void response.body?.cancel();
			const location = response.headers.get('location');
			if (!location || hop >= MAX_REDIRECTS) throw new RemoteImageError('too many redirects');
			url = new URL(location, url);
			continue;
		}
		if (response.status === 304) {
			return notModified(response, options.ifNoneMatch);
		}
		if (response.status !== 200) {
			void response.body?.cancel();
			throw new RemoteImageError(`upstream answered ${response.status}`);
		}
		return toUpstream(response);
	}
}

/** Fetches from our own storage's presigned URL: no redirect is ever followed. */
export async function fetchTrustedImage(url: string, options: FetchOptions = {}): Promise<UpstreamImage> {
	const response = await fetch(url, {
		redirect: 'error',
		dispatcher: trustedAgent,
		signal: AbortSignal.timeout(TOTAL_TIMEOUT_MS),
		headers: options.ifNoneMatch ? { 'if-none-match': options.ifNoneMatch } : {}
	});
	if (response.status === 304) {
		return notModified(response, options.ifNoneMatch);
	}
	if (response.status !== 200) {
		void response.body?.cancel();
		throw new RemoteImageError(`storage answered ${response.status}`);
	}
	return toUpstream(response);
}
