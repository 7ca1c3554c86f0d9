/**
 * A component rendered on the server as SvelteKit renders a page (the unit tests of src/lib/components): what its
 * server renderer puts in context for `$app/state` (superForm and the admin lists read the page from it), a GET of
 * `url` with no action result.
 */
import type { Component } from 'svelte';
import { render } from 'svelte/server';

export function renderAsPage<Props extends Record<string, unknown>>(
	component: Component<Props>,
	props: Props,
	url = 'http://localhost/'
): string {
	const { pathname } = new URL(url);
	const page = {
		data: {},
		form: null,
		url: new URL(url),
		params: {},
		route: { id: pathname },
		state: {},
		status: 200,
		error: null
	};
	return render(component, { props, context: new Map([['__request__', { page }]]) }).body;
}
