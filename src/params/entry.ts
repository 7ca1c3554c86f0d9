/**
 * `[id=entry]`: a content entry's id — a page's name (`home`, `mentions-legales`), `company`, or an article's UUID.
 * Anything else never reaches the handler (404), so no odd id becomes a database error.
 */
import type { ParamMatcher } from '@sveltejs/kit';

export const match = ((param: string): param is string =>
	/^[a-z0-9-]{1,64}$/.test(param)) satisfies ParamMatcher;
