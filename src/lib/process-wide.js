/**
 * A value the whole process shares. The production server entry (build/server.js) and the SvelteKit app are two
 * bundles in one process, each with its own copy of every module they both import: a module variable would be two
 * variables. What both must see — the shutdown hooks, the log level, the page cache, the routes handed to the
 * request log — lives on globalThis under a registered symbol (`Symbol.for`, the same in both copies), reached only
 * through here. Plain JavaScript (JSDoc-typed), as bounded-map.js: log.ts, which imports it, is also run by Node
 * directly.
 *
 * @template T
 * @typedef {object} ProcessWide
 * @property {() => T | undefined} get The value, or undefined while neither bundle has set it.
 * @property {(value: T) => void} set
 * @property {(make: () => T) => T} ensure The value, made by the first bundle to ask (the other finds it made).
 */

/**
 * @template T
 * @param {string} name
 * @returns {ProcessWide<T>}
 */
export function processWide(name) {
	const key = Symbol.for(`atelier.${name}`);
	// One box per name, on globalThis, made by the first copy to ask and found by the other: reading the value is then
	// a property of a plain object. Read from globalThis at every call (a symbol on the global object, through
	// Reflect), it took 3–4 µs of each image proxy answer's CPU, profiled: the log level, the bridges and the page
	// cache are read on every request.
	/** @type {{ value: T | undefined }} */
	const box = Reflect.get(globalThis, key) ?? { value: undefined };
	Reflect.set(globalThis, key, box);
	const get = () => box.value;
	/** @param {T} value */
	const set = (value) => void (box.value = value);
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
