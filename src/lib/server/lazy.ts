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
