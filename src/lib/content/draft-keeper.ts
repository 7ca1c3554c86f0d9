/**
 * The editor's promise that nothing typed is lost (issue « Content, part 1 », point 3), as plain logic the page
 * drives: every change is kept in the browser at once (localStorage, with the version it was made from) and sent
 * to the server a moment after the last keystroke; the browser's copy goes only when the server has that very
 * text. What the server says decides the state: saved; a stale version (409: both texts are shown); a session
 * that expired (401/403: sign in again, the copy waits and is sent then); a network failure (tried again).
 * Client-side only; the storage and the request are passed in, so that the rules are tested without a browser.
 */
import type { Fields } from './model';
import type { Problems } from './checks';

export type SaveState = 'saved' | 'pending' | 'saving' | 'offline' | 'expired' | 'conflict' | 'refused';

export interface KeptCopy {
	version: number;
	fields: Fields;
	keptAt: string;
}

export interface Conflict {
	version: number;
	draft: Fields | null;
	live: Fields | null;
}

export type SaveAnswer =
	| { status: 200; version: number }
	| { status: 409; conflict: Conflict }
	| { status: 401 | 403 }
	| { status: 400 | 413; detail: string; problems: Problems }
	| { status: 0 };

export interface KeeperDeps {
	storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
	key: string;
	save: (version: number, fields: Fields) => Promise<SaveAnswer>;
	onChange: (keeper: DraftKeeper) => void;
	/** After the last keystroke (under the 5 s the issue allows). */
	delayMs?: number;
	retryMs?: number;
	now?: () => Date;
}

export class DraftKeeper {
	state: SaveState = 'saved';
	version: number;
	conflict: Conflict | null = null;
	refusal: { detail: string; problems: Problems } | null = null;
	savedAt: Date | null = null;
	private sent = '';
	private latest: Fields;
	private timer: ReturnType<typeof setTimeout> | null = null;
	private running: Promise<void> | null = null;

	constructor(
		private readonly deps: KeeperDeps,
		version: number,
		fields: Fields
	) {
		this.version = version;
		this.latest = fields;
		this.sent = JSON.stringify(fields);
	}

	/** The browser's copy of an earlier visit (a reload, a sign-in), if it differs from what the server has. */
	recover(serverFields: Fields): KeptCopy | null {
		const raw = this.deps.storage.getItem(this.deps.key);
		if (!raw) return null;
		try {
			const copy = JSON.parse(raw) as KeptCopy;
			if (JSON.stringify(copy.fields) === JSON.stringify(serverFields)) {
				this.deps.storage.removeItem(this.deps.key);
				return null;
			}
			this.version = copy.version;
			this.latest = copy.fields;
			this.sent = JSON.stringify(serverFields);
			this.set('pending');
			this.schedule(0);
			return copy;
		} catch {
			this.deps.storage.removeItem(this.deps.key);
			return null;
		}
	}

	/** A change in the form: kept at once, sent after the pause. */
	changed(fields: Fields): void {
		this.latest = fields;
		const text = JSON.stringify(fields);
		if (text === this.sent && this.state !== 'conflict') return;
		this.keep(fields);
		if (this.state === 'conflict' || this.state === 'expired') return;
		this.set('pending');
		this.schedule(this.deps.delayMs ?? 1500);
	}

	/** Sends what is typed now (before a publish or a preview); resolves when the server has it, or not. */
	async flush(): Promise<boolean> {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		if (this.running) await this.running;
		if (JSON.stringify(this.latest) !== this.sent || this.state === 'offline' || this.state === 'pending')
			await this.send();
		return this.state === 'saved';
	}

	/** After a sign-in in another tab, or when the network is back: send the kept copy. */
	retry(): Promise<boolean> {
		if (this.state === 'expired' || this.state === 'offline' || this.state === 'refused') this.set('pending');
		return this.flush();
	}

	/** The conflict settled by keeping my text: it is saved over the version now current. */
	keepMine(): Promise<boolean> {
		if (!this.conflict) return this.flush();
		this.version = this.conflict.version;
		this.conflict = null;
		this.sent = '';
		this.set('pending');
		return this.flush();
	}

	/** The conflict settled by taking the saved text: my copy is dropped (after « Copier mon texte », if wanted). */
	takeTheirs(): Fields {
		const conflict = this.conflict!;
		this.version = conflict.version;
		this.latest = (conflict.draft ?? conflict.live ?? {}) as Fields;
		this.sent = JSON.stringify(this.latest);
		this.conflict = null;
		this.deps.storage.removeItem(this.deps.key);
		this.set('saved');
		return this.latest;
	}

	/** A publish, a restore or a discard moved the entry on: this is the server's state now. */
	reset(version: number, fields: Fields): void {
		this.version = version;
		this.latest = fields;
		this.sent = JSON.stringify(fields);
		this.conflict = null;
		this.refusal = null;
		this.savedAt = null;
		this.deps.storage.removeItem(this.deps.key);
		this.set('saved');
	}

	get unsaved(): boolean {
		return this.state !== 'saved';
	}

	private keep(fields: Fields) {
		const copy: KeptCopy = {
			version: this.version,
			fields,
			keptAt: (this.deps.now?.() ?? new Date()).toISOString()
		};
		try {
			this.deps.storage.setItem(this.deps.key, JSON.stringify(copy));
		} catch {
			// A full or refused storage: the server copy still comes a moment later.
		}
	}

	private schedule(ms: number) {
		if (this.timer) clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			this.timer = null;
			void this.send();
		}, ms);
	}

	private async send(): Promise<void> {
		if (this.running) return this.running;
		this.running = this.sendOnce().finally(() => (this.running = null));
		return this.running;
	}

	private async sendOnce(): Promise<void> {
		const fields = this.latest;
		const text = JSON.stringify(fields);
		this.set('saving');
		const answer = await this.deps.save(this.version, fields);
		switch (answer.status) {
			case 200:
				this.version = answer.version;
				this.sent = text;
				this.savedAt = this.deps.now?.() ?? new Date();
				this.refusal = null;
				if (JSON.stringify(this.latest) === text) {
					this.deps.storage.removeItem(this.deps.key);
					this.set('saved');
				} else {
					// Typed while it was on its way: keep the newer copy's version right, and send it too.
					this.keep(this.latest);
					this.set('pending');
					this.schedule(this.deps.delayMs ?? 1500);
				}
				return;
			case 409:
				this.conflict = answer.conflict;
				this.set('conflict');
				return;
			case 401:
			case 403:
				this.set('expired');
				return;
			case 400:
			case 413:
				this.refusal = { detail: answer.detail, problems: answer.problems };
				this.set('refused');
				return;
			default:
				this.set('offline');
				this.schedule(this.deps.retryMs ?? 5000);
		}
	}

	private set(state: SaveState) {
		this.state = state;
		this.deps.onChange(this);
	}
}

/** What the editor's status line says of each state (`savedAt`: the last save here; `hadDraft`: one was there). */
export function saveStateText(state: SaveState, savedAt: Date | null, hadDraft: boolean): string {
	return {
		saved: savedAt
			? `Brouillon enregistré à ${savedAt.toLocaleTimeString('fr-FR')}, pas encore publié`
			: hadDraft
				? 'Brouillon enregistré, pas encore publié'
				: 'À jour : rien d’autre que la version en ligne',
		pending: 'Modifications gardées dans ce navigateur, envoi dans un instant…',
		saving: 'Enregistrement…',
		offline:
			'Serveur injoignable : votre texte est gardé dans ce navigateur, nouvel essai dans quelques secondes.',
		expired: 'Votre session a expiré : votre texte est gardé dans ce navigateur.',
		conflict: 'Cette page a été modifiée ailleurs.',
		refused: 'Le brouillon a été refusé : voyez les champs signalés.'
	}[state];
}

/** Where the kept copy goes when the browser has no localStorage (server-side render, private modes). */
export function memoryStorage(): KeeperDeps['storage'] {
	const kept: Record<string, string> = {};
	return {
		getItem: (k: string) => kept[k] ?? null,
		setItem: (k: string, v: string) => void (kept[k] = v),
		removeItem: (k: string) => void delete kept[k]
	};
}
