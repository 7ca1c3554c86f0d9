/**
 * The « attestation de fin de formation » as an A4 PDF (pdf-lib): what the French training bodies hand at the end of
 * a programme — who, which programme, when, how long, each module with its date — with the business's details from
 * the company file, and a verification code with its address and QR code. Made once at issue; the stored bytes are
 * what every download sends and what the public page hashes.
 */
import { PDFDocument, PDFName, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { encode } from 'uqr';
import { company, companyAddressLine } from '$lib/company';
import { escapeXml } from '../xml';

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
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const INK = rgb(0.13, 0.12, 0.11);
const SOFT = rgb(0.36, 0.34, 0.31);
const ACCENT = rgb(0.55, 0.27, 0.13);

/**
 * The standard PDF fonts speak WinAnsi (Latin-1 and a few more): French is whole in it. Narrow and no-break spaces
 * become plain ones; any other character it lacks (an emoji in a name) becomes « ? » rather than failing the issue.
 */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export function winAnsi(text: string): string {
	return [...text.normalize('NFC').replace(/[\u202f\u2009\u00a0]/g, ' ')]
		.map((c) => {
			const code = c.codePointAt(0)!;
			return (code >= 0x20 && code <= 0x7e) || (code >= 0xa1 && code <= 0xff) || WIN_ANSI_EXTRA.has(c)
				? c
				: '?';
		})
		.join('');
}

const longDate = (date: Date) =>
	new Intl.DateTimeFormat('fr-FR', {
		day: 'numeric',
		month: 'long',
		year: 'numeric',
		timeZone: 'Europe/Paris'
	}).format(date);

export function durationText(minutes: number): string {
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	if (!hours) return `${rest} min`;
	return rest ? `${hours} h ${String(rest).padStart(2, '0')}` : `${hours} h`;
}

/** Lines of at most `width` points, broken between words (a word wider than the line is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(/\s+/).filter(Boolean)) {
		const candidate = line ? `${line} ${word}` : word;
		if (font.widthOfTextAtSize(candidate, size) <= width) {
			line = candidate;
			continue;
		}
		if (line) lines.push(line);
		line = word;
		while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
			let cut = line.length - 1;
			while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
			lines.push(line.slice(0, cut));
			line = line.slice(cut);
		}
	}
	if (line) lines.push(line);
	return lines;
}

/** What the foot of the last page holds: the signature block above the verification and its QR code. */
const FOOT_HEIGHT = 250;

class Writer {
	y = A4[1] - MARGIN;
	constructor(
		public page: PDFPage,
		readonly regular: PDFFont,
		readonly bold: PDFFont,
		readonly doc?: PDFDocument
	) {}

	/** Goes on to a new page when `height` points would pass `bottom`: a long programme takes two pages. */
	ensure(height: number, bottom = MARGIN) {
		if (!this.doc || this.y - height >= bottom) return;
		this.page = this.doc.addPage(A4);
		this.y = A4[1] - MARGIN;
	}

	text(
		text: string,
		options: { size?: number; bold?: boolean; color?: typeof INK; after?: number; x?: number } = {}
	) {
		const size = options.size ?? 11;
		const font = options.bold ? this.bold : this.regular;
		const x = options.x ?? MARGIN;
		for (const line of wrap(winAnsi(text), font, size, A4[0] - x - MARGIN)) {
			this.page.drawText(line, { x, y: this.y - size, size, font, color: options.color ?? INK });
			this.y -= size * 1.35;
		}
		this.y -= options.after ?? 0;
	}
}

/** What the document says of itself, in its information dictionary and its XMP metadata alike. */
interface DocumentFacts {
	title: string;
	author: string;
	subject: string;
	tool: string;
	language: string;
	identifier: string;
	date: Date;
}

/**
 * The XMP packet (ISO 16684-1) an archive or an accessibility checker reads first: the same title, author, subject,
 * dates and tool as the information dictionary (PDF/A asks that they agree), the language and the verification
 * code as the document's identifier.
 */
export function xmpPacket(facts: DocumentFacts): string {
	const date = facts.date.toISOString();
	const alt = (text: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(text)}</rdf:li></rdf:Alt>`;
	return [
		'<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
		'<x:xmpmeta xmlns:x="adobe:ns:meta/">',
		'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
		'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"',
		' xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">',
		'<dc:format>application/pdf</dc:format>',
		`<dc:title>${alt(facts.title)}</dc:title>`,
		`<dc:creator><rdf:Seq><rdf:li>${escapeXml(facts.author)}</rdf:li></rdf:Seq></dc:creator>`,
		`<dc:description>${alt(facts.subject)}</dc:description>`,
		`<dc:language><rdf:Bag><rdf:li>${escapeXml(facts.language)}</rdf:li></rdf:Bag></dc:language>`,
		`<dc:identifier>${escapeXml(facts.identifier)}</dc:identifier>`,
		`<xmp:CreateDate>${date}</xmp:CreateDate>`,
		`<xmp:ModifyDate>${date}</xmp:ModifyDate>`,
		`<xmp:MetadataDate>${date}</xmp:MetadataDate>`,
		`<xmp:CreatorTool>${escapeXml(facts.tool)}</xmp:CreatorTool>`,
		`<pdf:Producer>${escapeXml(facts.tool)}</pdf:Producer>`,
		'</rdf:Description>',
		'</rdf:RDF>',
		'</x:xmpmeta>',
		'<?xpacket end="w"?>'
	].join('\n');
}

/** The facts in the information dictionary and as the catalog's XMP stream; viewers show the title, not the file name. */
function describe(doc: PDFDocument, facts: DocumentFacts): void {
	doc.setTitle(facts.title, { showInWindowTitleBar: true });
	doc.setAuthor(facts.author);
	doc.setSubject(facts.subject);
	doc.setCreator(facts.tool);
	doc.setProducer(facts.tool);
	doc.setLanguage(facts.language);
	doc.setCreationDate(facts.date);
	doc.setModificationDate(facts.date);
	const metadata = doc.context.stream(new TextEncoder().encode(xmpPacket(facts)), {
		Type: 'Metadata',
		Subtype: 'XML'
	});
	doc.catalog.set(PDFName.of('Metadata'), doc.context.register(metadata));
}

export async function attestationPdf(content: AttestationContent): Promise<Uint8Array> {
	const doc = await PDFDocument.create();
	describe(doc, {
		title: winAnsi(`Attestation de fin de formation — ${content.memberName}`),
		author: winAnsi(company.legalName),
		subject: winAnsi(content.programme),
		tool: winAnsi(company.brand),
		language: 'fr-FR',
		identifier: content.code,
		date: content.issuedAt
	});
	const page = doc.addPage(A4);
	const regular = await doc.embedFont(StandardFonts.Helvetica);
	const bold = await doc.embedFont(StandardFonts.HelveticaBold);
	const w = new Writer(page, regular, bold, doc);

	// The training body, as its declaration names it.
	w.text(company.legalName, { bold: true, size: 12 });
	w.text(companyAddressLine(), { size: 9, color: SOFT });
	w.text(`SIRET ${company.siret} · ${company.email} · ${company.phone}`, { size: 9, color: SOFT });
	w.text(`Déclaration d’activité n° ${company.trainingDeclaration}`, { size: 9, color: SOFT, after: 30 });
	page.drawRectangle({ x: MARGIN, y: w.y, width: 60, height: 3, color: ACCENT });
	w.y -= 18;

	w.text('Attestation de fin de formation', { bold: true, size: 22, after: 18 });
	w.text(`${company.legalName} atteste que`, { after: 4 });
	w.text(content.memberName, { bold: true, size: 16, after: 4 });
	w.text('a suivi l’intégralité du programme', { after: 4 });
	w.text(`« ${content.programme} »`, { bold: true, size: 14, after: 14 });

	const assessed = content.modules.some((m) => m.assessment);
	const facts: [string, string][] = [
		['Du', longDate(content.firstCompletedAt)],
		['Au', longDate(content.lastCompletedAt)],
		['Durée totale', durationText(content.totalMinutes)],
		['Nature', 'action de formation (article L6313-1 du Code du travail)'],
		['Modalité', 'formation à distance, en ligne'],
		['Évaluation', assessed ? 'quiz de fin de module, corrigés en ligne' : 'sans évaluation']
	];
	for (const [label, value] of facts) {
		const y = w.y;
		w.text(label, { size: 10, color: SOFT });
		w.y = y;
		w.text(value, { size: 10, x: MARGIN + 90 });
	}
	w.y -= 12;

	const objectives = content.objectives
		.split('\n')
		.map((line) => line.trim().replace(/^[-•*]\s*/, ''))
		.filter(Boolean);
	if (objectives.length) {
		w.text('Objectifs de la formation', { bold: true, size: 12, after: 4 });
		for (const objective of objectives) {
			w.ensure(14);
			const y = w.y;
			w.text('•', { size: 10, color: ACCENT });
			w.y = y;
			w.text(objective, { size: 10, x: MARGIN + 12 });
		}
		w.y -= 12;
	}

	w.text('Modules suivis et résultats de l’évaluation', { bold: true, size: 12, after: 4 });
	for (const module of content.modules) {
		w.ensure(30);
		const y = w.y;
		w.text(module.title, { size: 10 });
		const after = w.y;
		w.y = y;
		const date = winAnsi(`terminé le ${longDate(module.completedAt)}`);
		w.page.drawText(date, {
			x: A4[0] - MARGIN - regular.widthOfTextAtSize(date, 9),
			y: y - 10,
			size: 9,
			font: regular,
			color: SOFT
		});
		w.y = after;
		const { assessment } = module;
		w.text(
			assessment
				? `Quiz réussi : meilleur score ${assessment.best} % (seuil ${assessment.passPercent} %), en ${
						assessment.attempts > 1 ? `${assessment.attempts} tentatives` : 'une tentative'
					}`
				: 'Sans évaluation',
			{ size: 9, color: SOFT, x: MARGIN + 12, after: 3 }
		);
	}
	w.y -= 12;
	// The date, the signature and the verification stay together, on a page of their own if need be.
	w.ensure(24 + FOOT_HEIGHT - MARGIN);
	const last = w.page;
	w.text(`Fait à ${company.address.city}, le ${longDate(content.issuedAt)}, pour valoir ce que de droit.`, {
		size: 10,
		after: 4
	});

	// The signature block, above the verification: who signs for the training body, and room for the signature
	// and the stamp of a printed copy. Anchored there, it fills the page's foot whatever the number of modules.
	const blockWidth = 220;
	const blockX = A4[0] - MARGIN - blockWidth;
	const blockTop = Math.min(w.y - 8, FOOT_HEIGHT);
	const signer = new Writer(last, regular, bold);
	signer.y = blockTop;
	signer.text(`Pour ${company.legalName}`, { size: 10, x: blockX });
	signer.text(company.publicationDirector, { size: 10, bold: true, x: blockX });
	signer.text('Responsable de la formation', { size: 9, color: SOFT, x: blockX, after: 6 });
	last.drawRectangle({
		x: blockX,
		y: signer.y - 56,
		width: blockWidth,
		height: 56,
		borderColor: SOFT,
		borderWidth: 0.5
	});
	last.drawText(winAnsi('Signature et cachet'), {
		x: blockX + 6,
		y: signer.y - 12,
		size: 8,
		font: regular,
		color: SOFT
	});

	// The verification: the code, its address, and its QR code, at the foot of the page.
	const qr = encode(content.verifyUrl, { ecc: 'M', border: 0 });
	const cell = 2.2;
	const qrSize = qr.size * cell;
	const qrX = A4[0] - MARGIN - qrSize;
	const qrY = MARGIN;
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
	);
	w.y = MARGIN + Math.max(qrSize, 60);
	const footWidth = A4[0] - 2 * MARGIN - qrSize - 16;
	for (const [text, size, font] of [
		['Vérifier cette attestation', 10, bold],
		[`Code : ${content.code}`, 10, regular],
		[content.verifyUrl, 8, regular],
		[
			'Cette page dit si l’attestation est valide et si ce fichier est bien celui qui a été délivré.',
			8,
			regular
		]
	] as const) {
		for (const line of wrap(winAnsi(text), font, size, footWidth)) {
			last.drawText(line, { x: MARGIN, y: w.y - size, size, font, color: font === bold ? INK : SOFT });
			w.y -= size * 1.4;
		}
	}
	return doc.save();
}
