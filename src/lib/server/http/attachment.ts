/**
 * A file to download (CSV export, a member's data): never kept by a cache or a shared proxy, since it holds
 * people's data, and saved under the name given rather than shown.
 */
export function attachment(body: string, fileName: string, contentType: string): Response {
	return new Response(body, {
		headers: {
			'content-type': contentType,
			// The names are ours (a brand or a word and a date): quotes and backslashes cannot occur.
			'content-disposition': `attachment; filename="${fileName}"`,
			'cache-control': 'no-store'
		}
	});
}

/**
 * `Content-Disposition` for a file named by a person (an attachment's title): an ASCII fallback in `filename`
 * (accents dropped, quotes, backslashes and controls replaced) and the exact name in `filename*` (RFC 6266, 8187).
 */
export function attachmentDisposition(name: string): string {
	const cleaned =
		name
			// eslint-disable-next-line no-control-regex
			.replace(/[\u0000-\u001f\u007f/\\]/g, ' ')
			.replace(/\s+/g, ' ')
			.trim()
			.slice(0, 150) || 'fichier';
	const ascii = cleaned
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^\x20-\x7e]/g, '_')
		.replace(/["%]/g, '_');
	const encoded = encodeURIComponent(cleaned).replace(
		/['()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
	);
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
