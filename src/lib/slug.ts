/**
 * "Les fondations : béton armé" → "les-fondations-beton-arme" (accents folded, 80 characters at most, no hyphen at
 * either end): heading anchors, a module's address, a new article's address from its title. Client-safe and light
 * (the article form imports it without the Markdown renderer).
 */
export function slugify(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/œ/g, 'oe')
		.replace(/æ/g, 'ae')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 80)
		.replace(/-+$/, '');
}
