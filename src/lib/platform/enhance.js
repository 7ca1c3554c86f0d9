// The one script of the platform's pages that are sent without SvelteKit's client (csr = false: the home, the
// demos, the legal pages and the public forms — contact, devis, sign-in, registration). Their forms post to their
// action and the server answers with the page (errors at the fields and beside the button, or the confirmation,
// focused at its anchor): they work without this file. It adds the two things a script does better: a button that
// cannot be pressed twice while its form is on its way, and the flag tests wait for, as they do for hydration.
// Plain JavaScript on purpose: Vite copies it as an asset (`?url`), hashed and cached for good.
(() => {
	for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll('form'))) {
		if (form.method.toLowerCase() !== 'post') continue;
		form.addEventListener('submit', (event) => {
			const button = /** @type {HTMLButtonElement | null} */ (
				event.submitter ?? form.querySelector('button[type="submit"], button:not([type])')
			);
			if (!button) return;
			// After the submission has started: a submitter disabled before it would not be sent.
			setTimeout(() => {
				button.disabled = true;
				button.setAttribute('aria-busy', 'true');
			});
		});
	}
	// A form marked `data-checks="<url of form-checks.js>"` (the candidature wizard) checks its fields as they are
	// filled in: the script comes only when a person starts typing (or presses its button), never with the page.
	for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (
		document.querySelectorAll('form[data-checks]')
	)) {
		/** @type {Promise<void> | null} */
		let loading = null;
		const load = () =>
			(loading ??= import(/* @vite-ignore */ String(form.dataset.checks)).then((checks) =>
				checks.checkForm(form)
			));
		form.addEventListener('focusin', load, { once: true });
		form.addEventListener('input', load, { once: true });
	}
	// Back to a page kept in the back-forward cache: its buttons work again.
	addEventListener('pageshow', (event) => {
		if (!event.persisted) return;
		for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (
			document.querySelectorAll('[aria-busy="true"]')
		)) {
			button.disabled = false;
			button.removeAttribute('aria-busy');
		}
	});
	document.documentElement.dataset.hydrated = '';
})();
