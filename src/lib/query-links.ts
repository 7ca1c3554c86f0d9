/**
 * Links to the page one is on with its query changed — a tab, a filter, the next page of a list — so that every
 * view of an admin list is a link that can be shared and works without JavaScript. Client-safe.
 */

/** `url`'s path and query with `changes` applied: a value sets its parameter, `null` removes it. */
export function withQuery(url: URL, changes: Readonly<Record<string, string | null>>): string {
	const params = new URLSearchParams(url.search);
	for (const [key, value] of Object.entries(changes)) {
		if (value === null) params.delete(key);
		else params.set(key, value);
	}
	const query = params.toString();
	return `${url.pathname}${query ? `?${query}` : ''}`;
}
