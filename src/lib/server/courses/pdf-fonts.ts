/**
 * The attestation and the certificat are set in the site's own faces — Inter for the text, Fraunces for the titles —
 * from the @fontsource packages the pages use, and print a name in any script a French member may write it in:
 * Latin with every diacritic (« Ștefan », « Łukasz »), Vietnamese, Cyrillic, Greek (Inter's other subsets), Arabic
 * and Hebrew (Noto Sans). Their files are built into the server (`?inline`: the image installs no dev package). They
 * ship as WOFF2, which a PDF cannot hold: wawoff2 turns each into the TrueType font a PDF embeds, once per process,
 * and pdf-lib embeds only the glyphs a document draws (its subset) — and only the faces it draws with: a document in
 * French embeds Inter and Fraunces alone, and the other faces are not even decompressed.
 *
 * A text is drawn in runs, each in the first face that has its letters: the document's own (Inter, or Fraunces for
 * bold titles), then the others (at their regular weight: no bold Cyrillic face ships). An Arabic or Hebrew run is
 * shaped and laid right to left by fontkit (pdf-lib lays text out with it); the spaces between two of its words go
 * with it, so that a name of several words reads in its own order inside a French line. They are variable fonts,
 * and a PDF draws a variable font's default instance: Inter at weight 400, Fraunces at 900. Every font is embedded,
 * as PDF/A and PDF/UA ask.
 */
import fontkit from '@pdf-lib/fontkit';
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { decompress } from 'wawoff2';
import interWoff2 from '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?inline';
import frauncesWoff2 from '@fontsource-variable/fraunces/files/fraunces-latin-wght-normal.woff2?inline';
import interLatinExtWoff2 from '@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2?inline';
import interVietnameseWoff2 from '@fontsource-variable/inter/files/inter-vietnamese-wght-normal.woff2?inline';
import interCyrillicWoff2 from '@fontsource-variable/inter/files/inter-cyrillic-wght-normal.woff2?inline';
import interCyrillicExtWoff2 from '@fontsource-variable/inter/files/inter-cyrillic-ext-wght-normal.woff2?inline';
import interGreekWoff2 from '@fontsource-variable/inter/files/inter-greek-wght-normal.woff2?inline';
import interGreekExtWoff2 from '@fontsource-variable/inter/files/inter-greek-ext-wght-normal.woff2?inline';
import arabicWoff2 from '@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff2?inline';
import hebrewWoff2 from '@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff2?inline';

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

/** Decompressed once per process, one after the other; a failure is tried again next time. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
	let loaded: Promise<T> | null = null;
	return () =>
		(loaded ??= load()).catch((error) => {
			loaded = null;
			throw error;
		});
}

const loadFaces = once(async () => {
	const text = await faceOf(interWoff2);
	return { text, titles: await faceOf(frauncesWoff2) };
});

/** The other scripts' faces, in the order a letter is looked for in them. */
const loadOtherFaces = once(async () => {
	const faces: Face[] = [];
	for (const file of [
		interLatinExtWoff2,
		interVietnameseWoff2,
		interCyrillicWoff2,
		interCyrillicExtWoff2,
		interGreekWoff2,
		interGreekExtWoff2,
		arabicWoff2,
		hebrewWoff2
	])
		faces.push(await faceOf(file));
	return faces;
});

export interface DrawOptions {
	x: number;
	y: number;
	size: number;
	bold?: boolean;
	color?: Color;
}

export interface DocumentFonts {
	regular: PDFFont;
	bold: PDFFont;
	/** The text as the faces can draw it (see `printable`). */
	printable: (text: string) => string;
	/** A printable text's width at `size` points, each run in its face. */
	width: (text: string, size: number, bold?: boolean) => number;
	/** Draws a printable text on one line from `x`, each run in its face. */
	draw: (page: PDFPage, text: string, options: DrawOptions) => void;
}

/**
 * Embeds the document's two faces in `doc`, and the other scripts' faces that `texts` — every text the document
 * will draw that does not come from this code (names, titles, the company file) — need; each subset to what it draws.
 */
export async function embedSiteFonts(doc: PDFDocument, texts: string[] = []): Promise<DocumentFonts> {
	const { text, titles } = await loadFaces();
	doc.registerFontkit(fontkit);
	const [regular, bold] = await Promise.all([
		doc.embedFont(text.ttf, { subset: true }),
		doc.embedFont(titles.ttf, { subset: true })
	]);
	const own = (c: number) => text.has(c) && titles.has(c);
	const needed = new Set(
		[...texts.join('').normalize('NFC')].map((c) => c.codePointAt(0)!).filter((c) => !own(c))
	);
	const others: { face: Face; font: PDFFont }[] = [];
	if (needed.size) {
		for (const face of await loadOtherFaces()) {
			const drawn = [...needed].filter((c) => face.has(c));
			if (!drawn.length) continue;
			for (const c of drawn) needed.delete(c);
			others.push({ face, font: await doc.embedFont(face.ttf, { subset: true }) });
		}
	}
	const drawable = (c: string) => {
		const codePoint = c.codePointAt(0)!;
		return own(codePoint) || others.some(({ face }) => face.has(codePoint));
	};
	const runsOf = (value: string, isBold: boolean) =>
		runs(value, isBold ? bold : regular, (c) =>
			own(c) ? null : (others.find(({ face }) => face.has(c))?.font ?? null)
		);
	return {
		regular,
		bold,
		printable: (value) => printable(value, drawable),
		width: (value, size, isBold = false) =>
			runsOf(value, isBold).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0),
		draw: (page, value, { x, y, size, bold: isBold = false, color }) => {
			let at = x;
			for (const run of runsOf(value, isBold)) {
				page.drawText(run.text, { x: at, y, size, font: run.font, color });
				at += run.font.widthOfTextAtSize(run.text, size);
			}
		}
	};
}

/**
 * A printable text cut into runs of one face each: `own` for what the document's face draws, else the face
 * `otherFor` names. A space between two letters of the same other face is drawn in it (a right-to-left name of
 * two words is one run, laid out whole).
 */
export function runs<Font>(
	value: string,
	own: Font,
	otherFor: (codePoint: number) => Font | null
): { text: string; font: Font }[] {
	const chars = [...value];
	const fonts = chars.map((c) => otherFor(c.codePointAt(0)!) ?? own);
	for (let i = 1; i < chars.length - 1; i++) {
		if (!/\s/.test(chars[i]!)) continue;
		let after = i + 1;
		while (after < chars.length - 1 && /\s/.test(chars[after]!)) after++;
		if (fonts[i - 1] !== own && fonts[i - 1] === fonts[after]) fonts[i] = fonts[i - 1]!;
	}
	const result: { text: string; font: Font }[] = [];
	chars.forEach((c, i) => {
		const last = result.at(-1);
		if (last && last.font === fonts[i]) last.text += c;
		else result.push({ text: c, font: fonts[i]! });
	});
	return result;
}

/**
 * The faces hold the scripts above. Narrow and thin spaces become plain ones (a line breaks there anyway); a letter
 * none has is drawn without its accent when that is a letter one has; anything else (an emoji in a name) becomes
 * « ? » rather than failing the issue.
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
