/**
 * The page cache of `/`, `/macon` and `/paysagiste` (CONTRACT §4). This first version keeps no pages yet:
 * it is the purge entry point that the site-images API calls, and its listeners are how other parts of the
 * app learn that a page changed. The marketing-pages work fills it with rendered HTML.
 */
type Listener = (path: string) => void;

const listeners = new Set<Listener>();

export function onPurge(listener: Listener): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

/** Drops the cached copy of a page so that the next request renders it afresh. */
export async function purge(path: string): Promise<void> {
	for (const listener of listeners) listener(path);
}
