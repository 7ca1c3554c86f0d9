/**
 * The visitor's cookie choice in showcase mode: "accepted" lets optional third-party content (the contact page's
 * map) load, "refused" keeps it out. Kept in the browser only — localStorage under its own key, which nothing in
 * platform mode uses — for six months, then asked again. Before the page's scripts run (and without JavaScript)
 * the choice is `unknown` and nothing optional loads.
 */
export const CONSENT_KEY = 'vitrine-consentement';
export const CONSENT_MAX_AGE_MS = 183 * 24 * 60 * 60 * 1000;

export type Choice = 'accepted' | 'refused';

interface Stored {
	choice: Choice;
	at: number;
}

function read(now: number): Choice | null {
	try {
		const stored = JSON.parse(localStorage.getItem(CONSENT_KEY) ?? 'null') as Stored | null;
		if (!stored || (stored.choice !== 'accepted' && stored.choice !== 'refused')) return null;
		if (!(now - stored.at < CONSENT_MAX_AGE_MS)) return null;
		return stored.choice;
	} catch {
		// Storage blocked or a value we did not write: ask again.
		return null;
	}
}

class Consent {
	/** `unknown` until the browser has read the stored choice (and always on the server). */
	choice = $state<Choice | 'unknown' | 'none'>('unknown');
	/** The banner shows when there is no choice yet, or when the visitor asked to change it. */
	bannerOpen = $state(false);

	/** Reads the stored choice; called once by the banner when the page's scripts start. */
	load(now = Date.now()): void {
		const stored = read(now);
		this.choice = stored ?? 'none';
		this.bannerOpen = stored === null;
	}

	decide(choice: Choice, now = Date.now()): void {
		try {
			localStorage.setItem(CONSENT_KEY, JSON.stringify({ choice, at: now } satisfies Stored));
		} catch {
			// Storage blocked: the choice holds for this page only.
		}
		this.choice = choice;
		this.bannerOpen = false;
	}

	reopen(): void {
		this.bannerOpen = true;
	}
}

export const consent = new Consent();
