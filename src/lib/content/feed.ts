/** The blog feed's name, as the feed and every page's discovery link say it: « Le blog d’Atelier ». Client-safe. */
export const blogTitle = (brand: string): string =>
	/^[aeiouyhàâäéèêëîïôöûüœ]/i.test(brand) ? `Le blog d’${brand}` : `Le blog de ${brand}`;
