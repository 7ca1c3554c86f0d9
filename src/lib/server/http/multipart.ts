/**
 * Reads one file from a multipart/form-data body as it streams in, and stops reading — 413 — as soon as the
 * file passes the limit, without buffering the rest of the body. Nothing is stored until the whole body has
 * arrived intact, so a cut or truncated upload leaves nothing behind.
 */
import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors';

export interface UploadedFile {
	field: string;
	filename: string;
	mimeType: string;
	data: Buffer;
	/** The body's text fields (the alt text sent with an upload), as sent. */
	fields: Record<string, string>;
}

/** Room for the multipart envelope (boundaries, part headers) around the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

export async function readSingleFile(
	request: Request,
	field: string,
	maxBytes: number,
	/**
	 * `fieldSize`: the longest text field (a question sent with its attachment); `fileOptional`: a body without the
	 * file is the text fields alone (its `data` empty), not a 400.
	 */
	{ fieldSize = 1024, fileOptional = false } = {}
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

	const body = drainingSource(request.body as NodeReadableStream<Uint8Array>);
	return new Promise<UploadedFile>((resolve, reject) => {
		let parser: busboy.Busboy;
		try {
			parser = busboy({
				headers: { 'content-type': contentType },
				limits: { files: 1, fileSize: maxBytes, fields: 10, parts: 12, fieldSize }
			});
		} catch {
			reject(new UnsupportedMediaTypeError('Corps multipart invalide.'));
			return;
		}
		let found: UploadedFile | null = null;
		const fields: Record<string, string> = {};
		parser.on('field', (name, value) => {
			fields[name] = value;
		});
		let settled = false;
		const fail = (error: Error) => {
			if (settled) return;
			settled = true;
			reject(error);
			// Stops the parser; the source then reads and drops what the client still sends (see drainingSource).
			// Not synchronously: busboy may be inside its own write (the 'limit' event), which a destroy breaks.
			setImmediate(() => parser.destroy());
		};
		const malformed = () =>
			new ValidationError(
				{ [field]: ['Corps multipart invalide ou incomplet.'] },
				'Envoi incomplet ou invalide.'
			);
		parser.on('file', (name, stream, info) => {
			// A truncated part errors here and in the parser: the parser's error is the one acted on.
			stream.on('error', () => {});
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
				if (settled || stream.truncated) return;
				found = {
					field: name,
					filename: info.filename ?? '',
					mimeType: info.mimeType,
					data: Buffer.concat(chunks),
					fields
				};
			});
		});
		// Emitted before 'close' for a truncated or broken body.
		parser.on('error', () => fail(malformed()));
		parser.on('close', () => {
			if (settled) return;
			settled = true;
			if ((!found || found.data.length === 0) && fileOptional)
				resolve({ field, filename: '', mimeType: '', data: Buffer.alloc(0), fields });
			else if (!found || found.data.length === 0)
				reject(new ValidationError({ [field]: ['Aucun fichier reçu dans le champ « file ».'] }));
			else resolve(found);
		});
		// A body that ends before its closing boundary, a broken envelope, or a client gone mid-upload all end
		// here: a clean 400 (unread by a client that left), never an unhandled stream error.
		pipeline(body, parser, (error) => {
			if (error) fail(malformed());
		});
	});
}

/**
 * The request body as a Node stream that, when destroyed (the parser failed, or gave up past the limit), keeps
 * reading and dropping what the client still sends instead of cancelling the request: cancelling destroys the
 * socket, and a client still sending would then get a reset instead of our answer. The server entry bounds how
 * long and how much a connection answered early may still send.
 */
function drainingSource(stream: NodeReadableStream<Uint8Array>): Readable {
	const reader = stream.getReader();
	return new Readable({
		read() {
			reader.read().then(
				({ done, value }) => this.push(done ? null : value),
				(error: Error) => this.destroy(error)
			);
		},
		destroy(error, callback) {
			const drain = async () => {
				for (;;) if ((await reader.read()).done) return;
			};
			drain().catch(() => {});
			callback(error);
		}
	});
}
