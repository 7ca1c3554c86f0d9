/**
 * Reads one file from a multipart/form-data body as it streams in, and stops reading — 413 — as soon as the
 * file passes the limit, without buffering the rest of the body.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors';

export interface UploadedFile {
	field: string;
	filename: string;
	mimeType: string;
	data: Buffer;
}

/** Room for the multipart envelope (boundaries, part headers) around the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

export async function readSingleFile(
	request: Request,
	field: string,
	maxBytes: number
): Promise<UploadedFile> {
	const contentType = request.headers.get('content-type') ?? '';
	if (!/^multipart\/form-data;/i.test(contentType)) {
		throw new UnsupportedMediaTypeError('Envoyez le fichier en multipart/form-data.');
	}
	const declared = Number(request.headers.get('content-length'));
	if (Number.isFinite(declared) && declared > maxBytes + ENVELOPE_BYTES) {
		throw new PayloadTooLargeError(`Le fichier dépasse ${Math.round(maxBytes / 1024 / 1024)} Mo.`);
	}
	if (!request.body) throw new ValidationError({ [field]: ['Aucun fichier reçu.'] });

	const body = Readable.fromWeb(request.body as NodeReadableStream);
	return new Promise<UploadedFile>((resolve, reject) => {
		let parser: busboy.Busboy;
		try {
			parser = busboy({
				headers: { 'content-type': contentType },
				limits: { files: 1, fileSize: maxBytes, fields: 10, parts: 12, fieldSize: 1024 }
			});
		} catch {
			reject(new UnsupportedMediaTypeError('Corps multipart invalide.'));
			return;
		}
		let found: UploadedFile | null = null;
		let settled = false;
		const fail = (error: Error) => {
			if (settled) return;
			settled = true;
			// Stop parsing and keep nothing more: the rest of the body is read and dropped, so that the client,
			// still sending, then reads our answer instead of a reset connection. adapter-node's BODY_SIZE_LIMIT
			// bounds how much can still arrive.
			body.unpipe(parser);
			parser.removeAllListeners('file');
			body.on('data', () => {});
			body.resume();
			reject(error);
		};
		parser.on('file', (name, stream, info) => {
			if (name !== field) {
				stream.resume();
				return;
			}
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('limit', () =>
				fail(new PayloadTooLargeError(`Le fichier dépasse ${Math.round(maxBytes / 1024 / 1024)} Mo.`))
			);
			stream.on('end', () => {
				if (settled) return;
				found = {
					field: name,
					filename: info.filename ?? '',
					mimeType: info.mimeType,
					data: Buffer.concat(chunks)
				};
			});
		});
		parser.on('error', () => fail(new ValidationError({ [field]: ['Corps multipart invalide.'] })));
		parser.on('close', () => {
			if (settled) return;
			settled = true;
			if (!found || found.data.length === 0)
				reject(new ValidationError({ [field]: ['Aucun fichier reçu dans le champ « file ».'] }));
			else resolve(found);
		});
		body.on('error', (error) => fail(error));
		body.pipe(parser);
	});
}
