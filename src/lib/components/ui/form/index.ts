/**
 * Form parts: `<Form>` puts a superform in context; the fields read their value, errors and constraints by name.
 *
 *     const superform = createForm(() => data.form, { validators: zod4Client(schema) });
 *     const { TextField, SelectField } = fieldsOf(superform);   // names checked against the form's data
 *     <Form form={superform}><FormMessage /><TextField name="email" label="…" /><SubmitButton>…</SubmitButton></Form>
 */
import type { Component } from 'svelte';
import { superForm, type FormOptions, type SuperForm, type SuperValidated } from 'sveltekit-superforms';
import { NETWORK_ERROR, refusalText } from '$lib/messages';
import CheckboxField from './CheckboxField.svelte';
import CheckboxGroupField from './CheckboxGroupField.svelte';
import RadioGroupField from './RadioGroupField.svelte';
import SelectField from './SelectField.svelte';
import TextAreaField from './TextAreaField.svelte';
import TextField from './TextField.svelte';

export { default as Form } from './Form.svelte';
export { default as FormMessage } from './FormMessage.svelte';
export { default as SubmitButton } from './SubmitButton.svelte';
export type { FieldOption } from './context';

type Message = App.Superforms.Message;

/**
 * superForm with what every form of the site shares: an answer that never came (network) or a server failure
 * becomes a French form message instead of an exception, and the typed values stay. It takes the first data
 * through a getter (`() => data.form`): the superform is made once from it and keeps itself in step afterwards.
 */
export function createForm<T extends Record<string, unknown>>(
	data: () => SuperValidated<T, Message>,
	{ onSubmit, ...options }: FormOptions<T, Message> = {}
): SuperForm<T, Message> {
	const form: SuperForm<T, Message> = superForm(data(), {
		// The <form> is `novalidate` (French messages, not the browser's bubbles, and the server's when JavaScript
		// is off), which would also skip superforms' own check before sending: run it here, unless the button says
		// `formnovalidate` (the wizard's "Retour").
		onSubmit: async (submit) => {
			const skip =
				(submit.submitter instanceof HTMLButtonElement || submit.submitter instanceof HTMLInputElement) &&
				submit.submitter.formNoValidate;
			if (!skip && options.validators && !(await form.validateForm({ update: true })).valid) {
				submit.cancel();
				return;
			}
			await onSubmit?.(submit);
		},
		onError: ({ result }) => {
			// A failed fetch rejects with an Error; a server failure answers with SvelteKit's App.Error (and its id).
			const text =
				result.error instanceof Error ? NETWORK_ERROR : refusalText(result.status, result.error as App.Error);
			form.message.set({ type: 'error', text });
		},
		...options
	});
	return form;
}

/** The names of `T` whose values are of type `V` (optional ones included). */
type NamesOf<T, V> = { [K in keyof T & string]-?: NonNullable<T[K]> extends V ? K : never }[keyof T & string];
type PropsOf<C> = C extends Component<infer P> ? P : never;
type Named<C, N extends string> = Component<Omit<PropsOf<C>, 'name'> & { name: N }>;

/**
 * The field components, typed for the form `T`: a text field only takes the name of a string field, a checkbox
 * the name of a boolean one. Pass the superform, or name `T` for fields that live in a component of their own.
 * No cast: a component that accepts any name is a component that accepts these names.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the argument is there to infer T
export function fieldsOf<T extends Record<string, unknown>>(form?: SuperForm<T, Message>) {
	const fields: {
		/** Text, or a number typed as text (`type="number"`: superforms reads it back as a number). */
		TextField: Named<typeof TextField, NamesOf<T, string | number>>;
		TextAreaField: Named<typeof TextAreaField, NamesOf<T, string>>;
		SelectField: Named<typeof SelectField, NamesOf<T, string>>;
		RadioGroupField: Named<typeof RadioGroupField, NamesOf<T, string>>;
		CheckboxField: Named<typeof CheckboxField, NamesOf<T, boolean>>;
		CheckboxGroupField: Named<typeof CheckboxGroupField, NamesOf<T, string[]>>;
	} = { TextField, TextAreaField, SelectField, RadioGroupField, CheckboxField, CheckboxGroupField };
	return fields;
}
