/**
 * The choices a form or a filter offers, written once as `{ value: label }` in the order they are shown: the list
 * the fields render (`{ value, label }`, ui/form's FieldOption), the values a schema admits (`z.enum(valuesOf(…))`)
 * and the label of a stored value. Client-safe.
 */
export interface Option<V extends string = string> {
	readonly value: V;
	readonly label: string;
}

/** `{ macon: 'Maçon', … }` → `[{ value: 'macon', label: 'Maçon' }, …]`, each value typed as its key. */
export function optionsOf<const Labels extends Record<string, string>>(
	labels: Labels
): readonly Option<Extract<keyof Labels, string>>[] {
	return Object.entries(labels).map(([value, label]) => ({
		value: value as Extract<keyof Labels, string>,
		label
	}));
}

/** The values, as the non-empty tuple `z.enum` takes. */
export const valuesOf = <V extends string>(options: readonly Option<V>[]) =>
	options.map((option) => option.value) as [V, ...V[]];

/** The label of a stored value; a value no longer offered is shown as it is, none as ''. */
export const labelOf = (options: readonly Option[], value: string | null | undefined): string =>
	options.find((option) => option.value === value)?.label ?? value ?? '';
