/** A document made for its reader (a certificat, a proof file) as a download nobody else keeps. */
export function documentDownload(
	bytes: Uint8Array,
	filename: string,
	contentType = 'application/pdf'
): Response {
	return new Response(Buffer.from(bytes), {
		headers: {
			'content-type': contentType,
			'content-length': String(bytes.byteLength),
			'content-disposition': `attachment; filename="${filename}"`,
			'cache-control': 'private, no-store',
			'x-content-type-options': 'nosniff'
		}
	});
}
