// The checks a form's fields get while a person fills it in, loaded by enhance.js only once they start typing in a
// form marked `data-checks` (the candidature wizard): the page itself ships no form library. The rules are the
// ones the server rendered on each control from the step's schema (required, type, pattern, length, range), and
// the words are the schema's own (`data-messages` around the form: wizard.ts, fieldMessages); the server checks
// again (a SIRET's checksum, say) and stays the judge. A field is checked when it is left after a change (its
// message goes as soon as it is right), and every field on « Continuer »: the first wrong one takes the focus,
// with its message where the server puts its own.
// Plain JavaScript on purpose, as enhance.js: copied as a hashed asset, cached for good.

/** @typedef {{ missing?: string, format?: string }} FieldMessages */

/**
 * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} control
 * @param {Record<string, FieldMessages>} messages
 */
function messageOf(control, messages) {
	const v = control.validity;
	if (v.valid) return '';
	const own = messages[control.name];
	if (v.valueMissing && own?.missing) return own.missing;
	if (!v.valueMissing && own?.format) return own.format;
	if (v.valueMissing) {
		if (control.type === 'checkbox') return 'Cochez cette case pour continuer.';
		if (control.type === 'radio') return 'Choisissez une réponse.';
		return 'Ce champ est à remplir.';
	}
	if (v.typeMismatch && control.type === 'email') return 'Cette adresse e-mail n’est pas valide.';
	if (v.tooShort && 'minLength' in control) return `Au moins ${control.minLength} caractères.`;
	if (v.tooLong && 'maxLength' in control) return `${control.maxLength} caractères au plus.`;
	if (v.rangeUnderflow && 'min' in control) return `Au moins ${control.min}.`;
	if (v.rangeOverflow && 'max' in control) return `Au plus ${control.max}.`;
	if (v.badInput || v.stepMismatch) return 'Indiquez un nombre entier.';
	// A pattern: the field's own hint says the expected form (« Un numéro français, par exemple … »).
	const hint = control.id && document.getElementById(`${control.id}-hint`);
	return hint ? `Format non reconnu. ${hint.textContent?.trim()}` : 'Format non reconnu.';
}

/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Control */

/**
 * Shows (or clears) a field's message where the server puts its own: its `<p class="error">`, made alike if none.
 * @param {Control} control
 * @param {string} message
 */
function show(control, message) {
	const shell = control.closest('.field');
	if (!shell) return;
	const id = control.closest('fieldset')?.id || control.id;
	let error = document.getElementById(`${id}-error`);
	if (!message) {
		shell.classList.remove('invalid');
		(control.closest('fieldset') ?? control).removeAttribute('aria-invalid');
		error?.remove();
		return;
	}
	if (!error) {
		error = document.createElement('p');
		error.className = 'error';
		error.id = `${id}-error`;
		shell.append(error);
		const described = control.closest('fieldset') ?? control;
		const ids = (described.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
		if (!ids.includes(error.id)) described.setAttribute('aria-describedby', [...ids, error.id].join(' '));
	}
	error.textContent = message;
	shell.classList.add('invalid');
	(control.closest('fieldset') ?? control).setAttribute('aria-invalid', 'true');
}

/** @param {HTMLFormElement} form */
export function checkForm(form) {
	/** @type {Record<string, FieldMessages>} */
	const messages = JSON.parse(form.closest('[data-messages]')?.getAttribute('data-messages') ?? '{}');
	const changed = new WeakSet();
	const controls = () =>
		/** @type {Control[]} */ ([...form.elements]).filter((e) => e.willValidate && e.type !== 'hidden');
	// A message goes as soon as what is typed is right; a new one comes when the field is left wrong. Never the
	// other way round: a message removed as the field is left would move the button being clicked from under the
	// pointer (between the press and the release), and the click would be lost. Hence `input` only, never
	// `change`: a text field's `change` fires as it is left — at the press on « Continuer » when the field was
	// corrected before this script arrived (a select, a box or a radio sends `input` as it is chosen).
	form.addEventListener('input', (event) => {
		const control = /** @type {Control} */ (event.target);
		changed.add(control);
		if (control.willValidate && control.getAttribute('aria-invalid') && !messageOf(control, messages))
			show(control, '');
	});
	form.addEventListener('focusout', (event) => {
		const control = /** @type {Control} */ (event.target);
		if (!changed.has(control) || !control.willValidate) return;
		const message = messageOf(control, messages);
		if (message) show(control, message);
	});
	form.addEventListener(
		'submit',
		(event) => {
			// « Retour » keeps what was typed without checking it (formnovalidate), as the server does.
			if (/** @type {SubmitEvent} */ (event).submitter?.hasAttribute('formnovalidate')) return;
			const wrong = controls().filter((control) => {
				const message = messageOf(control, messages);
				show(control, message);
				return message !== '';
			});
			if (!wrong.length) return;
			event.preventDefault();
			event.stopImmediatePropagation();
			wrong[0]?.focus();
		},
		// Before enhance.js's own listener, which disables the button of a form on its way.
		{ capture: true }
	);
}
