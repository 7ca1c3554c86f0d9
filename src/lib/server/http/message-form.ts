/**
 * A message form with an optional file (a question to the trainer, a reply in a thread): its text fields and its
 * attachment, read as the body streams in, the file bounded (413 past it). A plain form without the file input
 * (urlencoded) reads as its fields alone.
 */
import { readSingleFile } from './multipart';
import { formFields } from './forms';

/** Room for a message of 5,000 characters, each up to 4 bytes in UTF-8. */
const TEXT_FIELD_BYTES = 32 * 1024;

export async function readMessageForm(
	request: Request,
	maxFileBytes: number
): Promise<{ fields: Record<string, unknown>; attachment: { filename: string; data: Buffer } | null }> {
	if (!/^multipart\/form-data;/i.test(request.headers.get('content-type') ?? ''))
		return { fields: await formFields(request), attachment: null };
	const read = await readSingleFile(request, 'file', maxFileBytes, {
		fieldSize: TEXT_FIELD_BYTES,
		fileOptional: true
	});
	return {
		fields: read.fields,
		attachment: read.data.length ? { filename: read.filename, data: read.data } : null
	};
}
