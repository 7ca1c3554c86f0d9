/**
 * Text as XML character data or an attribute's value: the five characters XML gives a meaning, as entities, and
 * no character XML 1.0 forbids (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF; a surrogate
 * without its pair) — not even as an entity: one of them and a feed reader drops the whole feed. A pasted line
 * break (U+000B, U+000C) becomes a space; any other such character is left out. Used wherever the server writes
 * XML by hand (the sitemap, the blog's feed, the attestation's XMP packet).
 */
const ENTITIES: Record<string, string> = {
	'<': '&lt;',
	'>': '&gt;',
	'&': '&amp;',
	"'": '&apos;',
	'"': '&quot;'
};

const NOT_XML =
	// eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are the point
	/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const escapeXml = (text: string): string =>
	text
		.replace(NOT_XML, (c) => (c === '\u000b' || c === '\u000c' ? ' ' : ''))
		.replace(/[<>&'"]/g, (c) => ENTITIES[c]!);
