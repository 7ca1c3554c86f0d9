import { config } from '../config';

/** The canonical URL of a page of this site. */
export const canonicalUrl = (path: string) => new URL(path, config.origin).href;
