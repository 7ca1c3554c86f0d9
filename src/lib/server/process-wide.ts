/**
 * A value the whole process shares. The production server entry (build/server.js) and the SvelteKit app are two
 * bundles in one process, each with its own copy of every module they both import: a module variable would be two
 * variables. What both must see — the shutdown hooks, the log level, the page cache, the routes handed to the
 * request log — lives on globalThis under a registered symbol (`Symbol.for`, the same in both copies), reached only
 * through here.
 */
export interface ProcessWide<T> {
	/** The value, or undefined while neither bundle has set it. */
	get(): T | undefined;
	set(value: T): void;
	/** The value, made by the first bundle to ask (the other finds it made). */
	ensure(make: () => T): T;
}

export function processWide<T>(name: string): ProcessWide<T> {
	const key = Symbol.for(`atelier.${name}`);
	const get = () => Reflect.get(globalThis, key) as T | undefined;
	const set = (value: T) => void Reflect.set(globalThis, key, value);
	return {
		get,
		set,
		ensure(make) {
			const existing = get();
			if (existing !== undefined) return existing;
			const made = make();
			set(made);
			return made;
		}
	};
}
