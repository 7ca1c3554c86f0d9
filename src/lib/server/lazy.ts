/**
 * An object that is built on first use. SvelteKit imports server modules at build time to analyse routes, so
 * modules must not read configuration or open connections when merely imported.
 */
export function lazy<T extends object>(create: () => T): T {
	let instance: T | undefined;
	const get = () => (instance ??= create());
	return new Proxy({} as T, {
		get: (_, property) => {
			const target = get();
			if (property === BUILT) return target;
			const value = Reflect.get(target, property, target);
			// Methods (found on the prototype) are bound to the real object; functions held as own properties
			// — postgres.js's `sql`, with its own properties like `listen` — are passed as they are.
			const isMethod = typeof value === 'function' && !Object.prototype.hasOwnProperty.call(target, property);
			return isMethod ? value.bind(target) : value;
		},
		has: (_, property) => Reflect.has(get(), property),
		// So that `instanceof` sees the real class of what was built.
		getPrototypeOf: () => Reflect.getPrototypeOf(get()),
		ownKeys: () => Reflect.ownKeys(get()),
		getOwnPropertyDescriptor: (_, property) => Reflect.getOwnPropertyDescriptor(get(), property)
	});
}

const BUILT = Symbol('the object a lazy() stands for');

/**
 * The object a `lazy()` stands for, built if it was not (anything else as it is). Every property read through the
 * proxy is a trap, and every method read a new bound function: a path that runs at every request (the image proxy)
 * holds the object itself instead.
 */
export function built<T extends object>(value: T): T {
	return (Reflect.get(value, BUILT) as T | undefined) ?? value;
}
