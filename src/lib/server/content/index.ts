/**
 * Content files: what a deployment writes in Markdown under src/content/ (alias `$content`) rather than in code.
 * The agency's legal pages are served from here; the showcase's content index parses its files with the same
 * reader.
 */
import { NotFoundError } from '../errors';
import { legalPages, type LegalPage } from './legal';

/** One of the agency's legal pages, by its slug ("cgv"); a route that names a missing one is a 404. */
export function legalPage(slug: string): LegalPage {
	const page = legalPages.get(slug);
	if (!page) throw new NotFoundError('Page introuvable.');
	return page;
}

export { fillPlaceholders, parseContentFile, type ParsedFile } from './files';
export type { LegalPage };
