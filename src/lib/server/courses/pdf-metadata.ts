/**
 * What a PDF says of itself, for the archive and accessibility checkers a funder runs (PDF/A-2b, PDF/UA-1): its
 * information dictionary and the same facts as XMP, its output intent, its file identifier.
 */
import { createHash } from 'node:crypto';
import { PDFHexString, PDFName, type PDFDocument } from 'pdf-lib';
import { srgbProfile } from '../imaging';
import { escapeXml } from '../xml';

/** What the document says of itself, in its information dictionary and its XMP metadata alike. */
export interface DocumentFacts {
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
 * dates and tool as the information dictionary (PDF/A asks that they agree, to the second), the language, the
 * verification code as the document's identifier, and the two claims a checker tests the file against: PDF/A-2b
 * (`pdfaid`) and PDF/UA-1 (`pdfuaid`, a schema PDF/A does not predefine, so the packet describes it).
 */
export function xmpPacket(facts: DocumentFacts): string {
	const date = xmpDate(facts.date);
	const alt = (text: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(text)}</rdf:li></rdf:Alt>`;
	return [
		'<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
		'<x:xmpmeta xmlns:x="adobe:ns:meta/">',
		'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
		'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"',
		' xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
		' xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"',
		' xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"',
		' xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"',
		' xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">',
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
		'<pdfaid:part>2</pdfaid:part>',
		'<pdfaid:conformance>B</pdfaid:conformance>',
		'<pdfuaid:part>1</pdfuaid:part>',
		'<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">',
		'<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>',
		'<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>',
		'<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>',
		'<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">',
		'<pdfaProperty:name>part</pdfaProperty:name>',
		'<pdfaProperty:valueType>Integer</pdfaProperty:valueType>',
		'<pdfaProperty:category>internal</pdfaProperty:category>',
		'<pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>',
		'</rdf:li></rdf:Seq></pdfaSchema:property>',
		'</rdf:li></rdf:Bag></pdfaExtension:schemas>',
		'</rdf:Description>',
		'</rdf:RDF>',
		'</x:xmpmeta>',
		'<?xpacket end="w"?>'
	].join('\n');
}

/** To the second, in UTC: the information dictionary's dates have no milliseconds, and the two must agree. */
const xmpDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const wholeSeconds = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);

/**
 * The facts in the information dictionary and as the catalog's XMP stream (viewers show the title, not the file
 * name); the sRGB output intent PDF/A asks of a document drawn in RGB (the profile every uploaded image is
 * converted to); and the file identifier of its trailer, from the verification code.
 */
export async function describePdf(doc: PDFDocument, facts: DocumentFacts): Promise<void> {
	const date = wholeSeconds(facts.date);
	doc.setTitle(facts.title, { showInWindowTitleBar: true });
	doc.setAuthor(facts.author);
	doc.setSubject(facts.subject);
	doc.setCreator(facts.tool);
	doc.setProducer(facts.tool);
	doc.setLanguage(facts.language);
	doc.setCreationDate(date);
	doc.setModificationDate(date);
	const { context, catalog } = doc;
	const metadata = context.stream(new TextEncoder().encode(xmpPacket({ ...facts, date })), {
		Type: 'Metadata',
		Subtype: 'XML'
	});
	catalog.set(PDFName.of('Metadata'), context.register(metadata));
	const profile = context.flateStream(await srgbProfile(), { N: 3 });
	catalog.set(
		PDFName.of('OutputIntents'),
		context.obj([
			context.obj({
				Type: 'OutputIntent',
				S: 'GTS_PDFA1',
				OutputConditionIdentifier: PDFHexString.fromText('sRGB IEC61966-2.1'),
				Info: PDFHexString.fromText('sRGB IEC61966-2.1'),
				DestOutputProfile: context.register(profile)
			})
		])
	);
	const id = PDFHexString.of(createHash('sha256').update(facts.identifier).digest('hex').slice(0, 32));
	context.trailerInfo.ID = context.obj([id, id]);
}
