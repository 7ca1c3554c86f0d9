/**
 * Shutdown hooks shared by the server entry (build/server.js) and the SvelteKit app. They are two separate
 * bundles in one process, so the registry lives on globalThis under a registered symbol rather than in a
 * module variable that each bundle would hold its own copy of.
 */
type Hook = () => Promise<unknown> | unknown;

const KEY = Symbol.for('atelier.shutdown-hooks');
const registry = globalThis as unknown as { [KEY]?: Hook[] };

export function onShutdown(hook: Hook): void {
	(registry[KEY] ??= []).push(hook);
}

/** Runs every hook once, most recent first (what opened last closes first), and never throws. */
export async function runShutdownHooks(): Promise<void> {
	const hooks = registry[KEY] ?? [];
	registry[KEY] = [];
	for (const hook of hooks.reverse()) {
		try {
			await hook();
		} catch (error) {
			console.error('shutdown hook failed', error);
		}
	}
}
