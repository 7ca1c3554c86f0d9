// The showcase's only script. Showcase pages are rendered on the server and sent without SvelteKit's client
// (csr = false: no hydration, nothing blocks the main thread); this small file, loaded with `defer`, adds what
// needs JavaScript: the cookie banner and the map it guards, and the réalisations' filter and lightbox. Without
// it every page still works: no banner, no map (a link to it instead), every photo shown and linked.
// Plain JavaScript on purpose: Vite copies it as an asset (`?url`), hashed and cached for good.
(() => {
	const KEY = 'vitrine-consentement';
	const MAX_AGE_MS = 183 * 24 * 60 * 60 * 1000;

	/** @typedef {'accepted' | 'refused'} Choice */

	/**
	 * @template {Element} T
	 * @param {string} selector
	 * @param {ParentNode} [root]
	 * @returns {T[]}
	 */
	const all = (selector, root = document) => /** @type {T[]} */ ([...root.querySelectorAll(selector)]);
	/**
	 * @template {Element} T
	 * @param {string} selector
	 * @param {ParentNode} [root]
	 * @returns {T | null}
	 */
	const one = (selector, root = document) => /** @type {T | null} */ (root.querySelector(selector));

	/**
	 * The stored choice, or null when there is none, it is unreadable, or older than six months.
	 * @returns {Choice | null}
	 */
	function storedChoice() {
		try {
			const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null');
			if (!stored || (stored.choice !== 'accepted' && stored.choice !== 'refused')) return null;
			return Date.now() - stored.at < MAX_AGE_MS ? stored.choice : null;
		} catch {
			return null;
		}
	}

	/** @type {HTMLElement | null} */
	const banner = one('[data-consent-banner]');
	/** @type {HTMLElement[]} */
	const maps = all('[data-consent-map]');

	function showMaps() {
		for (const map of maps) {
			if (map.querySelector('iframe')) continue;
			const frame = document.createElement('iframe');
			frame.src = map.dataset.src ?? '';
			frame.title = map.dataset.title ?? '';
			frame.loading = 'lazy';
			frame.referrerPolicy = 'no-referrer';
			map.replaceChildren(frame);
		}
	}

	/** @param {Choice} choice */
	function decide(choice) {
		try {
			localStorage.setItem(KEY, JSON.stringify({ choice, at: Date.now() }));
		} catch {
			// Storage blocked: the choice holds for this page only.
		}
		if (banner) banner.hidden = true;
		if (choice === 'accepted') showMaps();
	}

	/** @param {boolean} focus */
	function openBanner(focus) {
		if (!banner) return;
		banner.hidden = false;
		if (focus) /** @type {HTMLButtonElement | null} */ (one('button', banner))?.focus();
	}

	if (banner) {
		one('[data-choice="refused"]', banner)?.addEventListener('click', () => decide('refused'));
		one('[data-choice="accepted"]', banner)?.addEventListener('click', () => decide('accepted'));
		for (const link of all('[data-manage-cookies]'))
			link.addEventListener('click', (event) => {
				event.preventDefault();
				openBanner(true);
			});
	}
	for (const button of /** @type {HTMLButtonElement[]} */ (all('[data-accept-map]'))) {
		button.hidden = false;
		button.addEventListener('click', () => decide('accepted'));
	}
	// What changes the page (the banner, the map) runs in a task of its own, after the listeners are in place:
	// several short tasks keep a slow phone's main thread free, where one long one would block it.
	setTimeout(() => {
		const choice = storedChoice();
		if (choice === 'accepted') showMaps();
		// Asked only where there is something to consent to (the contact page's map): every other page opens
		// without a banner over it. The footer's « Gérer les cookies » opens it anywhere.
		else if (choice === null && maps.length) openBanner(false);
		// Tests that drive these behaviours wait for this, as they do for the platform's hydration.
		document.documentElement.dataset.hydrated = '';
	});

	// Réalisations: the lightbox (a modal <dialog>: focus stays inside, Escape closes), within the photos the
	// filter (CSS alone) leaves visible.
	const gallery = one('[data-gallery]');
	/** @type {HTMLDialogElement | null} */
	const dialog = one('[data-lightbox]');
	if (gallery && dialog) {
		/** @type {HTMLElement[]} */
		const items = all('[data-type]', gallery);
		const figure = /** @type {HTMLElement} */ (one('[data-lightbox-figure]', dialog));
		const caption = /** @type {HTMLElement} */ (one('[data-lightbox-caption]', dialog));
		const count = /** @type {HTMLElement} */ (one('[data-lightbox-count]', dialog));
		let shown = items;
		let index = 0;
		/** @type {HTMLElement | null} */
		let opener = null;

		/** @param {number} at */
		function show(at) {
			index = (at + shown.length) % shown.length;
			const item = /** @type {HTMLElement} */ (shown[index]);
			const picture = /** @type {HTMLElement} */ (one('picture', item)?.cloneNode(true));
			const image = /** @type {HTMLImageElement} */ (one('img', picture));
			image.loading = 'eager';
			for (const sized of all('[sizes]', picture)) sized.setAttribute('sizes', '92vw');
			figure.replaceChildren(picture);
			caption.textContent = item.dataset.caption ?? '';
			count.textContent = `${index + 1} / ${shown.length}`;
		}

		for (const item of items) {
			const link = /** @type {HTMLAnchorElement} */ (one('a', item));
			link.addEventListener('click', (event) => {
				event.preventDefault();
				opener = link;
				shown = items.filter((candidate) => candidate.offsetParent !== null);
				show(shown.indexOf(item));
				dialog.showModal();
			});
		}
		one('[data-previous]', dialog)?.addEventListener('click', () => show(index - 1));
		one('[data-next]', dialog)?.addEventListener('click', () => show(index + 1));
		one('[data-close]', dialog)?.addEventListener('click', () => dialog.close());
		dialog.addEventListener('keydown', (/** @type {KeyboardEvent} */ event) => {
			if (event.key === 'ArrowRight') show(index + 1);
			else if (event.key === 'ArrowLeft') show(index - 1);
		});
		dialog.addEventListener('close', () => {
			figure.replaceChildren();
			opener?.focus();
		});
	}
})();
