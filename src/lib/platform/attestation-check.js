// The one script of an attestation's public page (/attestation/{code}, sent without SvelteKit's client: a page a
// funder opens once should not download the whole app to hash one file). The PDF a visitor chooses or drops is
// hashed here (SHA-256, Web Crypto) and compared with the issued file's, which the form carries (`data-sha256`):
// the file is never sent. Without this script (or without Web Crypto, outside a secure context) the form posts the
// file and the server compares it, keeping nothing. The verdicts' words are the page's (its <template>s).
// Plain JavaScript on purpose: Vite copies it as an asset (`?url`), hashed and cached for good.
(() => {
	const form = /** @type {HTMLFormElement | null} */ (document.querySelector('form[data-sha256]'));
	if (form && window.crypto?.subtle) {
		const expected = form.dataset.sha256;
		const input = /** @type {HTMLInputElement} */ (form.querySelector('input[type="file"]'));
		const drop = /** @type {HTMLElement} */ (form.querySelector('[data-drop]'));
		const button = /** @type {HTMLButtonElement} */ (form.querySelector('button'));
		const live = /** @type {HTMLElement} */ (document.querySelector('[data-verdict]'));
		/** @param {'same' | 'different'} kind @param {string} fileName */
		const show = (kind, fileName) => {
			const template = /** @type {HTMLTemplateElement} */ (document.getElementById(`verdict-${kind}`));
			const verdict = /** @type {DocumentFragment} */ (template.content.cloneNode(true));
			for (const name of verdict.querySelectorAll('[data-file-name]')) name.textContent = fileName;
			live.replaceChildren(verdict);
		};
		const hex = (/** @type {ArrayBuffer} */ buffer) =>
			Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
		/** @param {File | undefined | null} file */
		const compare = async (file) => {
			if (!file) return;
			button.disabled = true;
			try {
				const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
				show(hex(digest) === expected ? 'same' : 'different', file.name);
			} finally {
				button.disabled = false;
			}
		};
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			void compare(input.files?.[0]);
		});
		input.addEventListener('change', () => void compare(input.files?.[0]));
		drop.addEventListener('dragover', (event) => {
			event.preventDefault();
			drop.classList.add('dragging');
		});
		drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
		drop.addEventListener('drop', (event) => {
			event.preventDefault();
			drop.classList.remove('dragging');
			void compare(event.dataTransfer?.files[0]);
		});
		// The page's words say what happens to the file: hashed here from now on.
		for (const text of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-when]')))
			text.hidden = text.dataset.when !== 'script';
	}
	document.documentElement.dataset.hydrated = '';
})();
