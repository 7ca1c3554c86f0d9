/**
 * The one eviction rule of every map kept in memory whatever keys arrive (a request's header, a failure's key, a
 * reader, a string to typeset): the key set as the newest entry, and past `max` entries the oldest goes first.
 * A Map iterates in insertion order, so its first key is the oldest. Client-safe plain JavaScript (JSDoc-typed):
 * src/lib/typography.js, which svelte.config.js imports, uses it too.
 *
 * @template K, V
 * @param {Map<K, V>} map
 * @param {K} key
 * @param {V} value
 * @param {number} max
 */
export function setBounded(map, key, value, max) {
	map.delete(key);
	if (map.size >= max) map.delete(/** @type {K} */ (map.keys().next().value));
	map.set(key, value);
}
