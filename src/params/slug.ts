/**
 * `[slug=slug]` in a route folder: an article's address as an article can have one (lowercase letters, digits and
 * single hyphens, 80 at most — what publishing checks), so that `/blog/%00`, a slug of 10,000 characters or any
 * other malformed one is a 404 before a handler or the database sees it (a NUL byte was a 500, with a stack).
 */
import type { ParamMatcher } from '@sveltejs/kit';
import { SLUG_PATTERN } from '$lib/content/model';

export const match = ((param: string): param is string =>
	param.length <= 80 && SLUG_PATTERN.test(param)) satisfies ParamMatcher;
