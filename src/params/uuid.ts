/**
 * `[id=uuid]` in a route folder: anything that is not a UUID never reaches the handler (SvelteKit answers 404),
 * so no handler parses ids by hand and no malformed id becomes a database error.
 */
import type { ParamMatcher } from '@sveltejs/kit';
import { isUuid } from '$lib/uuid';

export const match = ((param: string): param is string => isUuid(param)) satisfies ParamMatcher;
