/**
 * Text as XML character data or an attribute's value: the five characters XML gives a meaning, as entities. Used
 * wherever the server writes XML by hand (the sitemap, the blog's feed, the attestation's XMP packet).
 */
const ENTITIES: Record<string, string> = {
	'<': '&lt;',
	'>': '&gt;',
	'&': '&amp;',
	"'": '&apos;',
	'"': '&quot;'
};

export const escapeXml = (text: string): string => text.replace(/[<>&'"]/g, (c) => ENTITIES[c]!);
