/**
 * A field's value as plain text: what the editor's conflict screen and « Restaurer » show, and what « Copier mon
 * texte » copies. Client-safe.
 */
export function readable(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'boolean') return value ? 'oui' : 'non';
	if (Array.isArray(value))
		return value.map((item) => `• ${readable(item).replaceAll('\n', '\n  ')}`).join('\n');
	return Object.entries(value as Record<string, unknown>)
		.map(([key, inner]) => `${key} : ${readable(inner)}`)
		.join('\n');
}
