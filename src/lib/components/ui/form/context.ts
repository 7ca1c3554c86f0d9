/**
 * The form a field belongs to travels by context: `<Form form={superform}>` puts it there, and each field reads its
 * value, errors and constraints by `name` (as sveltesociety's form/Input and shadcn-svelte's form-field do). The
 * names are checked at compile time by the typed views of `fieldsOf` (index.ts); here they are plain strings.
 */
import { getContext, setContext } from 'svelte';
import { get } from 'svelte/store';
import { formFieldProxy, type FormFieldProxy, type SuperForm } from 'sveltekit-superforms';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a field works with any form's data
export type AnySuperForm = SuperForm<any, App.Superforms.Message>;

const KEY = Symbol('form');

/** `<Form>` puts a getter of its superform in context: a prop read where it is used, never copied at creation. */
export function setFormContext<T extends Record<string, unknown>>(
	getForm: () => SuperForm<T, App.Superforms.Message>
): void {
	setContext(KEY, getForm);
}

export function getFormContext(): AnySuperForm {
	const getForm = getContext<(() => AnySuperForm) | undefined>(KEY);
	if (!getForm) throw new Error('A form field must be placed inside <Form>.');
	return getForm();
}

/** One option of a select or a radio group. */
export interface FieldOption {
	value: string;
	label: string;
}

/** What every field kind takes besides its own attributes. */
export interface FieldBase<Name extends string> {
	name: Name;
	label: string;
	/** A sentence under the label, read with the field (aria-describedby). */
	hint?: string;
}

/**
 * A one-control field's props: the field's own, and the control's attributes (`HTMLInputAttributes`…) but those the
 * field sets itself (`Set`, besides its name, value and id).
 */
export type ControlFieldProps<Attributes, Set extends string = never> = FieldBase<string> &
	Omit<Attributes, 'name' | 'value' | 'id' | 'children' | Set>;

/**
 * The field named by `getName` of the enclosing form: its value store (typed `V` by the caller, whom `fieldsOf` has
 * checked), errors, constraints, the element id, and the ids that describe it. The name is read once: a field
 * keeps the name it was created with.
 */
export function fieldOf<V>(getName: () => string) {
	const name = getName();
	const form = getFormContext();
	if (!(name in get(form.form))) throw new Error(`The form has no field named "${name}".`);
	// superforms types the proxy by the form's own schema, which this generic helper does not know: `name` was checked above.
	const field = formFieldProxy(form, name) as unknown as FormFieldProxy<V>;
	return { ...field, id: `field-${name}` };
}

/** "field-x-hint field-x-error", or undefined when there is neither. */
export function describedBy(id: string, hint: string | undefined, errors: string[] | undefined) {
	return (
		[hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
	);
}

/**
 * What every control carries besides its value: id and name, its state and descriptions for assistive
 * technology, and the schema's constraints (required, minlength…) for the browser.
 */
export function controlAttributes(
	name: string,
	id: string,
	hint: string | undefined,
	errors: string[] | undefined,
	constraints: Record<string, unknown> | undefined
) {
	const { pattern, ...others } = constraints ?? {};
	return {
		id,
		name,
		'aria-invalid': errors?.length ? ('true' as const) : undefined,
		'aria-describedby': describedBy(id, hint, errors),
		...others,
		pattern: browserPattern(pattern)
	};
}

/**
 * A schema's expression as a `pattern` attribute only when a browser can compile it: browsers read `pattern` with
 * the `v` flag, under which zod's e-mail expression is invalid — Chromium then drops the check and logs an error.
 * An `email` input checks the address itself, and the server checks every field anyway.
 */
export function browserPattern(pattern: unknown): string | undefined {
	if (typeof pattern !== 'string') return undefined;
	try {
		new RegExp(`^(?:${pattern})$`, 'v');
		return pattern;
	} catch {
		return undefined;
	}
}
