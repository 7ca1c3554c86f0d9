/**
 * A large field a page renders on the server but the browser need not be sent twice: a module's HTML is already in
 * the page, and copied again into the data the client hydrates from it would double what a long module weighs (and
 * the server's serialising, hashing and encoding of it). On a full page load the field is present for the server's
 * render but not enumerable, so SvelteKit's serialiser (devalue, which walks `Object.keys`) leaves it out; the
 * component keeps the server's nodes at hydration (`{@html}` with `svelte-ignore hydration_html_changed`: the
 * server's value wins). A client-side navigation or an invalidation asks the load as a data request, and then the
 * field is sent like any other: the client has no page to read it from.
 *
 * `tests/e2e/courses/courses.e2e.ts` proves both ways: the page holds the HTML once, and a client-side navigation
 * shows it.
 */
export function renderedOnServer<T extends object, K extends string, V>(
	target: T,
	key: K,
	value: V,
	event: { isDataRequest: boolean }
): T & { [P in K]?: V } {
	Object.defineProperty(target, key, {
		value,
		enumerable: event.isDataRequest,
		writable: true,
		configurable: true
	});
	return target as T & { [P in K]?: V };
}
