/**
 * The « attestation de fin de formation » as an A4 PDF (pdf-lib): what the French training bodies hand at the end of
 * a programme — who, which programme, when, how long, each module with its date — with the business's details from
 * the company file, and a verification code with its address and QR code. Set in the site's own faces, embedded
 * (pdf-fonts.ts), tagged for screen readers (pdf-structure.ts) and described for archives (pdf-metadata.ts), as
 * PDF/A-2b and PDF/UA-1 ask. Made once at issue; the stored bytes are what every download sends and what the
 * public page hashes.
 */
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { encode } from 'uqr';
import { company, companyAddressLine } from '$lib/company';
import { longDate } from '$lib/format';
import { embedSiteFonts, type DocumentFonts } from './pdf-fonts';
import { describePdf } from './pdf-metadata';
import { TaggedPdf, type StructureElement, type StructureRole } from './pdf-structure';

export interface AttestationContent {
	memberName: string;
	programme: string;
	/** What the programme teaches, one objective a line ('' when the admin wrote none). */
	objectives: string;
	firstCompletedAt: Date;
	lastCompletedAt: Date;
	totalMinutes: number;
	/** Each module with its date and its assessment: its quiz's best score, or null for a module without a quiz. */
	modules: {
		title: string;
		completedAt: Date;
		assessment: { best: number; attempts: number; passPercent: number } | null;
	}[];
	code: string;
	verifyUrl: string;
	issuedAt: Date;
	/** The signature and stamp the admin uploaded (PNG), drawn in the signature block; null: room for them. */
	signature: Uint8Array | null;
}

export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 56;
export const INK = rgb(0.13, 0.12, 0.11);
export const SOFT = rgb(0.36, 0.34, 0.31);
export const ACCENT = rgb(0.55, 0.27, 0.13);

/** The site's long date (« 12 mars 2026 », in France's time zone), re-exported for the certificat. */
export { longDate };

/**
 * A new A4 document of the training body, as the attestation and the certificat begin: its faces embedded for what
 * it will print (`texts`, the title, the subject and the company file), its description (XMP and information
 * dictionary, pdf-metadata.ts), its structure tree and its first page.
 */
export async function trainingDocument(about: {
	title: string;
	subject: string;
	identifier: string;
	date: Date;
	texts: string[];
}) {
	const doc = await PDFDocument.create({ updateMetadata: false });
	const fonts = await embedSiteFonts(doc, [about.title, about.subject, ...about.texts, ...companyTexts()]);
	await describePdf(doc, {
		title: fonts.printable(about.title),
		author: fonts.printable(company.legalName),
		subject: fonts.printable(about.subject),
		tool: fonts.printable(company.brand),
		language: 'fr-FR',
		identifier: about.identifier,
		date: about.date
	});
	return { doc, fonts, tags: new TaggedPdf(doc), page: doc.addPage(A4) };
}

/** What the documents print of the company file: its faces are embedded for them too (a director's name…). */
const companyTexts = () => [
	company.legalName,
	company.brand,
	companyAddressLine(),
	company.publicationDirector,
	company.email,
	company.phone
];

export function durationText(minutes: number): string {
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	if (!hours) return `${rest} min`;
	return rest ? `${hours} h ${String(rest).padStart(2, '0')}` : `${hours} h`;
}

/** Lines of at most `width` points as `measure` reads them, broken between words (a word wider is cut). */
function wrap(text: string, measure: (text: string) => number, width: number): string[] {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(/\s+/).filter(Boolean)) {
		const candidate = line ? `${line} ${word}` : word;
		if (measure(candidate) <= width) {
			line = candidate;
			continue;
		}
		if (line) lines.push(line);
		line = word;
		while (measure(line) > width && line.length > 1) {
			let cut = line.length - 1;
			while (cut > 1 && measure(line.slice(0, cut)) > width) cut--;
			lines.push(line.slice(0, cut));
			line = line.slice(cut);
		}
	}
	if (line) lines.push(line);
	return lines;
}

/**
 * What the foot of the last page holds: the signature block above the verification and its QR code. Sized so that a
 * programme of three objectives and five modules keeps them on the page that names the learner.
 */
const FOOT_HEIGHT = 244;

interface TextOptions {
	size?: number;
	bold?: boolean;
	color?: typeof INK;
	after?: number;
	x?: number;
	/** The element the text is content of, or the role of a new one under the Document. */
	tag?: StructureElement | StructureRole;
}

/** Writes down the page in the document's fonts, each text tagged as the element it is. */
export class Writer {
	y = A4[1] - MARGIN;
	constructor(
		public page: PDFPage,
		readonly fonts: DocumentFonts,
		readonly tags: TaggedPdf,
		readonly doc?: PDFDocument
	) {}

	/** Goes on to a new page when `height` points would pass `bottom`: a long programme takes two pages. */
	ensure(height: number, bottom = MARGIN) {
		if (!this.doc || this.y - height >= bottom) return;
		this.page = this.doc.addPage(A4);
		this.y = A4[1] - MARGIN;
	}

	text(text: string, options: TextOptions = {}): StructureElement {
		const size = options.size ?? 11;
		const bold = options.bold ?? false;
		const x = options.x ?? MARGIN;
		const tag = options.tag ?? 'P';
		const element = typeof tag === 'string' ? this.tags.element(tag) : tag;
		const { fonts } = this;
		const lines = wrap(fonts.printable(text), (t) => fonts.width(t, size, bold), A4[0] - x - MARGIN);
		this.tags.content(this.page, element, () => {
			for (const line of lines) {
				fonts.draw(this.page, line, { x, y: this.y - size, size, bold, color: options.color ?? INK });
				this.y -= size * 1.35;
			}
		});
		this.y -= options.after ?? 0;
		return element;
	}
}

export async function attestationPdf(content: AttestationContent): Promise<Uint8Array> {
	const { doc, fonts, tags, page } = await trainingDocument({
		title: `Attestation de fin de formation — ${content.memberName}`,
		subject: content.programme,
		identifier: content.code,
		date: content.issuedAt,
		texts: [content.objectives, ...content.modules.map((module) => module.title)]
	});
	const { printable } = fonts;
	const w = new Writer(page, fonts, tags, doc);

	// The training body, as its declaration names it.
	w.text(company.legalName, { bold: true, size: 12 });
	w.text(companyAddressLine(), { size: 9, color: SOFT });
	w.text(`SIRET ${company.siret} · ${company.email} · ${company.phone}`, { size: 9, color: SOFT });
	w.text(`Déclaration d’activité n° ${company.trainingDeclaration}`, { size: 9, color: SOFT, after: 10 });
	tags.artifact(page, () => page.drawRectangle({ x: MARGIN, y: w.y, width: 60, height: 3, color: ACCENT }));
	w.y -= 12;

	w.text('Attestation de fin de formation', { bold: true, size: 22, after: 8, tag: 'H1' });
	const statement = tags.element('P');
	w.text(`${company.legalName} atteste que`, { after: 4, tag: statement });
	w.text(content.memberName, { bold: true, size: 16, after: 4, tag: statement });
	w.text('a suivi l’intégralité du programme', { after: 4, tag: statement });
	w.text(`« ${content.programme} »`, { bold: true, size: 14, after: 8, tag: statement });

	const assessed = content.modules.some((m) => m.assessment);
	const facts: [string, string][] = [
		['Du', longDate(content.firstCompletedAt)],
		['Au', longDate(content.lastCompletedAt)],
		['Durée totale', durationText(content.totalMinutes)],
		['Nature', 'action de formation (article L6313-1 du Code du travail)'],
		['Modalité', 'formation à distance, en ligne'],
		['Évaluation', assessed ? 'quiz de fin de module, corrigés en ligne' : 'sans évaluation']
	];
	// A table of two columns: each row's first cell heads it.
	const table = tags.element('Table');
	for (const [label, value] of facts) {
		const row = tags.element('TR', table);
		const y = w.y;
		w.text(label, { size: 10, color: SOFT, tag: tags.element('TH', row, { scope: 'Row' }) });
		w.y = y;
		w.text(value, { size: 10, x: MARGIN + 90, tag: tags.element('TD', row) });
	}
	w.y -= 8;

	const objectives = content.objectives
		.split('\n')
		.map((line) => line.trim().replace(/^[-•*]\s*/, ''))
		.filter(Boolean);
	if (objectives.length) {
		w.text('Objectifs de la formation', { bold: true, size: 12, after: 4, tag: 'H2' });
		const list = tags.element('L');
		for (const objective of objectives) {
			w.ensure(14);
			const item = tags.element('LI', list);
			const y = w.y;
			w.text('•', { size: 10, color: ACCENT, tag: tags.element('Lbl', item) });
			w.y = y;
			w.text(objective, { size: 10, x: MARGIN + 12, tag: tags.element('LBody', item) });
		}
		w.y -= 8;
	}

	w.text('Modules suivis et résultats de l’évaluation', { bold: true, size: 12, after: 4, tag: 'H2' });
	const modules = tags.element('L');
	for (const module of content.modules) {
		w.ensure(30);
		const body = tags.element('LBody', tags.element('LI', modules));
		const y = w.y;
		w.text(module.title, { size: 10, tag: tags.element('P', body) });
		const after = w.y;
		const date = printable(`terminé le ${longDate(module.completedAt)}`);
		const page = w.page;
		tags.content(page, tags.element('P', body), () =>
			fonts.draw(page, date, { x: A4[0] - MARGIN - fonts.width(date, 9), y: y - 10, size: 9, color: SOFT })
		);
		w.y = after;
		const { assessment } = module;
		w.text(
			assessment
				? `Quiz réussi : meilleur score ${assessment.best} % (seuil ${assessment.passPercent} %), en ${
						assessment.attempts > 1 ? `${assessment.attempts} tentatives` : 'une tentative'
					}`
				: 'Sans évaluation',
			{ size: 9, color: SOFT, x: MARGIN + 12, tag: tags.element('P', body) }
		);
	}
	w.y -= 4;
	// The date, the signature and the verification stay together, on a page of their own if need be.
	w.ensure(24 + FOOT_HEIGHT - MARGIN);
	const last = w.page;
	w.text(`Fait à ${company.address.city}, le ${longDate(content.issuedAt)}, pour valoir ce que de droit.`, {
		size: 10,
		after: 4
	});

	// The signature block, above the verification: who signs for the training body, and their signature and
	// stamp (the uploaded image), or room for them on a printed copy. Anchored there, it fills the page's foot
	// whatever the number of modules.
	const blockWidth = 220;
	const blockHeight = 56;
	const blockX = A4[0] - MARGIN - blockWidth;
	const blockTop = Math.min(w.y - 8, FOOT_HEIGHT);
	const signer = new Writer(last, fonts, tags);
	const signature = tags.element('Sect');
	signer.y = blockTop;
	signer.text(`Pour ${company.legalName}`, { size: 10, x: blockX, tag: tags.element('P', signature) });
	signer.text(company.publicationDirector, {
		size: 10,
		bold: true,
		x: blockX,
		tag: tags.element('P', signature)
	});
	signer.text('Responsable de la formation', {
		size: 9,
		color: SOFT,
		x: blockX,
		after: 6,
		tag: tags.element('P', signature)
	});
	await drawSignature(
		{ doc, page: last, tags, fonts, parent: signature },
		{
			x: blockX,
			top: signer.y,
			width: blockWidth,
			height: blockHeight,
			png: content.signature
		}
	);

	// The verification: the code, its address, and its QR code, at the foot of the page.
	const verification = tags.element('Sect');
	const qr = encode(content.verifyUrl, { ecc: 'M', border: 0 });
	const cell = 2.2;
	const qrSize = qr.size * cell;
	const qrX = A4[0] - MARGIN - qrSize;
	const qrY = MARGIN;
	w.y = MARGIN + Math.max(qrSize, 60);
	const footWidth = A4[0] - 2 * MARGIN - qrSize - 16;
	for (const [text, size, isBold, role] of [
		['Vérifier cette attestation', 10, true, 'H2'],
		[`Code : ${content.code}`, 10, false, 'P'],
		[content.verifyUrl, 8, false, 'P'],
		[
			'Cette page dit si l’attestation est valide et si ce fichier est bien celui qui a été délivré.',
			8,
			false,
			'P'
		]
	] as const) {
		tags.content(last, tags.element(role, verification), () => {
			for (const line of wrap(printable(text), (t) => fonts.width(t, size, isBold), footWidth)) {
				fonts.draw(last, line, {
					x: MARGIN,
					y: w.y - size,
					size,
					bold: isBold,
					color: isBold ? INK : SOFT
				});
				w.y -= size * 1.4;
			}
		});
	}
	const qrAlt = printable(`Code QR menant à la page de vérification : ${content.verifyUrl}`);
	tags.content(last, tags.element('Figure', verification, { alt: qrAlt }), () =>
		qr.data.forEach((row, y) =>
			row.forEach((dark, x) => {
				if (dark)
					last.drawRectangle({
						x: qrX + x * cell,
						y: qrY + qrSize - (y + 1) * cell,
						width: cell,
						height: cell,
						color: INK
					});
			})
		)
	);
	tags.finish();
	return doc.save();
}

/**
 * The signature and stamp the admin uploaded, fitted in a box whose top is `top` (a Figure of `parent`, described
 * for a screen reader), or, none uploaded, the empty frame where a hand signs — decoration, outside the structure.
 * The attestation and the certificat de réalisation both end with it.
 */
export async function drawSignature(
	on: { doc: PDFDocument; page: PDFPage; tags: TaggedPdf; fonts: DocumentFonts; parent: StructureElement },
	box: { x: number; top: number; width: number; height: number; png: Uint8Array | null }
): Promise<void> {
	const { doc, page, tags, fonts, parent } = on;
	const y = box.top - box.height;
	if (box.png) {
		const image = await doc.embedPng(box.png);
		const scale = Math.min((box.width - 8) / image.width, (box.height - 8) / image.height, 1);
		const [width, height] = [image.width * scale, image.height * scale];
		const alt = fonts.printable(`Signature et cachet de ${company.legalName}`);
		tags.content(page, tags.element('Figure', parent, { alt }), () =>
			page.drawImage(image, { x: box.x + 4, y: y + (box.height - height) / 2, width, height })
		);
		return;
	}
	tags.artifact(page, () => {
		page.drawRectangle({
			x: box.x,
			y,
			width: box.width,
			height: box.height,
			borderColor: SOFT,
			borderWidth: 0.5
		});
		fonts.draw(page, fonts.printable('Signature et cachet'), {
			x: box.x + 6,
			y: box.top - 12,
			size: 8,
			color: SOFT
		});
	});
}
