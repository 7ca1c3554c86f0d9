/**
 * Fetching images from the outside without becoming a proxy into the inside (SSRF): the host must be listed in
 * IMAGE_REMOTE_HOSTS when the URL is saved and again at every fetch; the address it resolves to must not be
 * loopback, private, link-local or otherwise internal — unless the listed host is that literal address; every
 * redirect (3 at most) is checked the same way; only image/* answers of 20 MB at most are passed on.
 *
 * Time limits: the answer's headers must arrive within HEADERS_TIMEOUT_MS (connection and redirects included);
 * the body is not limited here as a whole — a large image to a slow client may take long — but by the stall
 * limit the proxy puts between its chunks (proxy.ts).
 */
import { lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Readable, Transform, pipeline } from 'node:stream';
import { Agent, fetch, type Response as UndiciResponse } from 'undici';

export const MAX_REMOTE_BYTES = 20 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const CONNECT_TIMEOUT_MS = 5_000;
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * The longest wait for an image body's next chunk while the client is waiting for it (applied by the proxy to
 * every upstream: external, s3 and fs alike). A slow client does not count: nothing is asked of the upstream
 * while the client has not taken what it was given.
 */
export const BODY_STALL_MS = 10_000;

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
	connect: {
		timeout: CONNECT_TIMEOUT_MS,
		lookup: (hostname, options, callback) => {
			lookup(hostname, { ...options, all: true }, (error, addresses) => {
				if (error) return callback(error, '', 4);
				const list = addresses as unknown as { address: string; family: number }[];
				const bad = list.find((a) => isInternalAddress(a.address));
				if (bad) return callback(new RemoteImageError(`${hostname} resolves to an internal address`), '', 4);
				if ((options as { all?: boolean }).all)
					return (callback as unknown as (e: null, a: unknown) => void)(null, list);
				callback(null, list[0]!.address, list[0]!.family);
			});
		}
	}
});

/** Trusted upstreams (our own storage endpoint): timeouts, no address filtering. */
const trustedAgent = new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } });

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
	// pipeline, not the bare pipe method: an upstream that fails mid-body (connection cut, limit exceeded) destroys
	// every stage with the error, which the consumer of `body` sees; piped, the source's error had no listener and
	// took the whole process down. The callback has nothing to add: the error reaches the consumer through `body`.
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
	/** Until the final answer's headers; HEADERS_TIMEOUT_MS unless given (tests). */
	headersTimeoutMs?: number;
}

/**
 * Runs the header phase of a fetch under a deadline. The signal stays attached to the body afterwards but can no
 * longer fire: the body's own limit is the proxy's stall limit.
 */
async function withHeadersDeadline<T>(
	{ headersTimeoutMs = HEADERS_TIMEOUT_MS }: FetchOptions,
	run: (signal: AbortSignal) => Promise<T>
): Promise<T> {
	const controller = new AbortController();
	const timer = setTimeout(
		() => controller.abort(new RemoteImageError(`no answer within ${headersTimeoutMs} ms`)),
		headersTimeoutMs
	);
	try {
		return await run(controller.signal);
	} finally {
		clearTimeout(timer);
	}
}

async function get(url: URL, agent: Agent, signal: AbortSignal, { ifNoneMatch }: FetchOptions) {
	return fetch(url, {
		redirect: 'manual',
		dispatcher: agent,
		signal,
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
	return withHeadersDeadline(options, (signal) => fetchExternal(value, allowedHosts, signal, options));
}

async function fetchExternal(
	value: string,
	allowedHosts: readonly string[],
	signal: AbortSignal,
	options: FetchOptions
): Promise<UpstreamImage> {
	let url = new URL(value);
	for (let hop = 0; ; hop++) {
		const problem = externalUrlProblem(url.href, allowedHosts);
		if (problem) throw new RemoteImageError(problem);
		const literal = url.hostname.replace(/^\[|\]$/g, '');
		// A literal address skips DNS, so the lookup hook cannot see it: it is allowed only when listed as such.
		const agent = isIP(literal) ? trustedAgent : guardedAgent;
		const response = await get(url, agent, signal, options);
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
	return withHeadersDeadline(options, (signal) => fetchTrusted(url, signal, options));
}

async function fetchTrusted(url: string, signal: AbortSignal, options: FetchOptions): Promise<UpstreamImage> {
	const response = await fetch(url, {
		redirect: 'error',
		dispatcher: trustedAgent,
		signal,
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
