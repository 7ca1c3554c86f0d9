/**
 * The visitor's address as adapter-node tells it (`event.getClientAddress()`), for the server entry, which sees the
 * request before SvelteKit: the socket's peer, or behind a proxy the header ADDRESS_HEADER names — for
 * X-Forwarded-For the XFF_DEPTH-th address from the right, the one the last trusted proxy saw. '' when the header
 * the configuration expects is missing (adapter-node refuses such a request; nothing is counted for it).
 */
import type { IncomingMessage } from 'node:http';

export function clientAddressOf(
	req: Pick<IncomingMessage, 'headers' | 'socket'>,
	setting: { header: string | null; xffDepth: number }
): string {
	if (!setting.header) return req.socket.remoteAddress ?? '';
	const raw = req.headers[setting.header];
	const value = (Array.isArray(raw) ? raw[0] : raw) ?? '';
	if (setting.header !== 'x-forwarded-for') return value.trim();
	const addresses = value.split(',');
	return addresses.length >= setting.xffDepth ? addresses[addresses.length - setting.xffDepth]!.trim() : '';
}
