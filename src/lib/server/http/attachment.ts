/**
 * A file to download (CSV export, a member's data): never kept by a cache or a shared proxy, since it holds
 * people's data, and saved under the name given rather than shown. A stream (a long export) goes out as it is written.
 */
export function attachment(
	body: string | ReadableStream<Uint8Array>,
	fileName: string,
	contentType: string
): Response {
	return new Response(body, {
		headers: {
			'content-type': contentType,
			// The names are ours (a brand or a word and a date): quotes and backslashes cannot occur.
			'content-disposition': `attachment; filename="${fileName}"`,
			'cache-control': 'no-store'
		}
	});
}
