/**
 * The attestation is set in the site's own faces — Inter for the text, Fraunces for the titles — from the
 * @fontsource-variable packages the pages use. Their files are built into the server (`?inline`: the image installs
 * no dev package). They ship as WOFF2, which a PDF cannot hold: wawoff2 turns each into the TrueType font a PDF
 * embeds, once per process, and pdf-lib embeds only the glyphs a document draws (its subset). They are variable
 * fonts, and a PDF draws a variable font's default instance: Inter at weight 400, Fraunces at 900 — the regular
 * text and the bold titles the document wants. Every font is embedded, as PDF/A and PDF/UA ask.
 */
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import { decompress } from 'wawoff2';
import interWoff2 from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?inline';
import frauncesWoff2 from '@fontsource-variable/fraunces/files/fraunces-latin-wght-normal.woff2?inline';

interface Face {
	/** The TrueType bytes a PDF embeds. */
	ttf: Uint8Array;
	/** What the face can draw. */
	has: (codePoint: number) => boolean;
}

const dataUrlBytes = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');

/**
 * wawoff2 answers a view of its WebAssembly memory, which its next call overwrites: the bytes are copied at once,
 * and the faces are decompressed one after the other.
 */
async function faceOf(woff2DataUrl: string): Promise<Face> {
	const ttf = Buffer.from(await decompress(dataUrlBytes(woff2DataUrl)));
	const font = fontkit.create(ttf);
	return { ttf, has: (codePoint) => font.hasGlyphForCodePoint(codePoint) };
}

let faces: Promise<{ text: Face; titles: Face }> | null = null;
const loadFaces = () =>
	(faces ??= (async () => {
		const text = await faceOf(interWoff2);
		return { text, titles: await faceOf(frauncesWoff2) };
	})()).catch((error) => {
		faces = null;
		throw error;
	});

export interface DocumentFonts {
	regular: PDFFont;
	bold: PDFFont;
	/** The text as both faces can draw it (see `printable`). */
	printable: (text: string) => string;
}

/** Embeds the two faces in `doc` (subset to what it draws). */
export async function embedSiteFonts(doc: PDFDocument): Promise<DocumentFonts> {
	const { text, titles } = await loadFaces();
	doc.registerFontkit(fontkit);
	const [regular, bold] = await Promise.all([
		doc.embedFont(text.ttf, { subset: true }),
		doc.embedFont(titles.ttf, { subset: true })
	]);
	const drawable = (c: string) => {
		const codePoint = c.codePointAt(0)!;
		return text.has(codePoint) && titles.has(codePoint);
	};
	return { regular, bold, printable: (value) => printable(value, drawable) };
}

/**
 * The faces hold the Latin set the site's pages load (French whole, with « », ’, œ, €). Narrow and thin spaces
 * become plain ones (a line breaks there anyway); a letter they lack is drawn without its accent when that is a
 * letter they have (« Ș » as « S »); anything else (an emoji in a name) becomes « ? » rather than failing the issue.
 */
export function printable(value: string, drawable: (c: string) => boolean): string {
	return [...value.normalize('NFC').replace(/[\u202f\u2009]/g, ' ')]
		.map((c) => {
			if (c === '\n' || drawable(c)) return c;
			const base = c.normalize('NFD').replace(/\p{M}/gu, '');
			return base && [...base].every(drawable) ? base : '?';
		})
		.join('');
}
