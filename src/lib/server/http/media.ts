/** An object of the bucket answered by storage/media.ts, as the web Response a SvelteKit route returns. */
import { Readable } from 'node:stream';
import type { MediaAnswer } from '../storage';

/** The same answer as a web Response (the SvelteKit route's). */
export async function mediaResponse({ status, headers, body }: MediaAnswer): Promise<Response> {
	const stream = body ? await body() : null;
	if (body && !stream) return new Response('Fichier introuvable.', { status: 404 });
	stream?.on('error', () => {
		// A storage read that fails midway ends the response short; the client sees the cut and asks again.
	});
	return new Response(stream ? (Readable.toWeb(stream) as ReadableStream) : null, { status, headers });
}
