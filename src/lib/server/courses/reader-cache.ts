/**
 * What members' pages read at every request, kept in memory per instance: the catalogue (what a reader sees of every
 * module, in the admin's order) and each reader's completed modules. A course page or a dashboard is then built
 * without a query of its own: on the embedded database a query costs a third of a light signed-in page's time, and
 * the course page ran one more than `/aide` (`npm run bench members`).
 *
 * Kept right by dropping, never by expiry alone:
 * - every write the courses domain makes (service.ts) drops what it changed once it has committed, here and, through
 *   PostgreSQL NOTIFY, on every other instance sharing the database;
 * - a read that began before a drop does not keep what it read (it may predate the write);
 * - on LISTEN, first or after a lost connection (whose notifications are lost with it), everything is dropped.
 * What nothing here sees — an operator's SQL, a restore into a running database — is read again within
 * `MAX_AGE_MS`. On PGlite (one process) drops stay in-process.
 */
import type postgres from 'postgres';
import { log } from '../log';
import { setBounded } from '../../bounded-map.js';
import type { courseSettings, ModuleQuiz } from '../db/schema';

const CHANNEL = 'atelier_course_changes';
/** The NOTIFY payload for "the catalogue changed"; any other payload is the id of a reader whose progress changed. */
const CATALOGUE = '*';
/** The longest a kept copy is served without being read again. */
export const MAX_AGE_MS = 60_000;
/** Readers whose progress is kept: the most recent ones, each a few module ids. */
const MAX_READERS = 5_000;

/** What a reader sees of a module, published or not (an admin previews unpublished ones). */
export interface CatalogueModule {
	id: string;
	slug: string;
	title: string;
	summary: string;
	durationMinutes: number;
	published: boolean;
	updatedAt: Date;
	/** Its files (`storage:course/…` values): the lesson's video, captions, poster and worksheets. */
	video: string | null;
	captions: string | null;
	poster: string | null;
	attachments: { value: string; title: string }[];
	/** Its quiz, right answers and all: the service hands members only `quizView`'s part of it. */
	quiz: ModuleQuiz | null;
}

/**
 * The course's settings: the programme's name, whether modules open in order, its objectives (the attestation's;
 * '' until the admin writes them), and its programme sheet (`/formation`, the positioning, the surveys).
 */
export type ReaderSettings = Omit<typeof courseSettings.$inferSelect, 'singleton' | 'signaturePath'>;

/**
 * A read-through map: `get` loads a missing or expired key once however many ask at the same time; `drop` forgets a
 * key and any load of it in flight. A load that began before any drop stores nothing (the epoch moved): it may have
 * read the database before the write that caused the drop. Past `maxEntries`, the least recently stored goes.
 */
class Kept<V> {
	private readonly entries = new Map<string, { value: V; storedAt: number }>();
	private readonly loading = new Map<string, Promise<V>>();
	private epoch = 0;

	constructor(
		private readonly maxEntries: number,
		private readonly now: () => number
	) {}

	get(key: string, load: () => Promise<V>): Promise<V> {
		const entry = this.entries.get(key);
		if (entry && this.now() - entry.storedAt < MAX_AGE_MS) return Promise.resolve(entry.value);
		const running = this.loading.get(key);
		if (running) return running;
		const epoch = this.epoch;
		const task: Promise<V> = load()
			.then((value) => {
				if (this.epoch === epoch) this.store(key, value);
				return value;
			})
			.finally(() => {
				if (this.loading.get(key) === task) this.loading.delete(key);
			});
		this.loading.set(key, task);
		return task;
	}

	private store(key: string, value: V): void {
		setBounded(this.entries, key, { value, storedAt: this.now() }, this.maxEntries);
	}

	drop(key: string): void {
		this.epoch++;
		this.entries.delete(key);
		this.loading.delete(key);
	}

	clear(): void {
		this.epoch++;
		this.entries.clear();
		this.loading.clear();
	}

	get size(): number {
		return this.entries.size;
	}
}

/** One per database (courses/index.ts); tests make their own. */
export class ReaderCache {
	private readonly catalogue: Kept<readonly CatalogueModule[]>;
	private readonly settings: Kept<ReaderSettings>;
	private readonly completed: Kept<ReadonlySet<string>>;
	private readonly positioned: Kept<boolean>;
	private notifier: postgres.Sql | null = null;

	/**
	 * @param settingsDropped called once the settings were dropped (a write here, another instance's, a lost
	 *   connection): the programme's name is said outside members' pages too — e-mails, the home page — and is read
	 *   again at once rather than at the next course page.
	 */
	constructor(
		now: () => number = Date.now,
		private readonly settingsDropped: () => void = () => {}
	) {
		this.catalogue = new Kept(1, now);
		this.settings = new Kept(1, now);
		this.completed = new Kept(MAX_READERS, now);
		this.positioned = new Kept(MAX_READERS, now);
	}

	/** Every module, in the admin's order. The array is shared: read it, never change it. */
	catalogueOf(load: () => Promise<CatalogueModule[]>): Promise<readonly CatalogueModule[]> {
		return this.catalogue.get(CATALOGUE, load);
	}

	/** The course's settings; dropped with the catalogue (a settings change is announced as one). */
	settingsOf(load: () => Promise<ReaderSettings>): Promise<ReaderSettings> {
		return this.settings.get(CATALOGUE, load);
	}

	/** The ids of the modules `userId` completed (of any module, published or not). Shared: never change it. */
	completedBy(userId: string, load: () => Promise<string[]>): Promise<ReadonlySet<string>> {
		return this.completed.get(userId, async () => new Set(await load()));
	}

	/** Whether `userId` answered the positioning; dropped with their progress. */
	positionedBy(userId: string, load: () => Promise<boolean>): Promise<boolean> {
		return this.positioned.get(userId, load);
	}

	/** After a write to the modules or the settings has committed: drops them here and on the other instances. */
	catalogueChanged(): Promise<void> {
		this.drop(CATALOGUE);
		return this.tellOthers(CATALOGUE);
	}

	/** After a write to `userId`'s progress has committed: drops it here and on the other instances. */
	progressChanged(userId: string): Promise<void> {
		this.drop(userId);
		return this.tellOthers(userId);
	}

	private drop(payload: string): void {
		if (payload === CATALOGUE) {
			this.catalogue.drop(CATALOGUE);
			this.settings.drop(CATALOGUE);
			this.settingsDropped();
		} else {
			this.completed.drop(payload);
			this.positioned.drop(payload);
		}
	}

	/**
	 * The write has committed and this instance is right: a NOTIFY that fails (the database just went away) is
	 * logged, not thrown, so that the member or admin is not told that a saved change failed. The other instances
	 * then read again within MAX_AGE_MS, or at once when their LISTEN connection comes back.
	 */
	private async tellOthers(payload: string): Promise<void> {
		if (!this.notifier) return;
		try {
			await this.notifier.notify(CHANNEL, payload);
		} catch (error) {
			log.warn('course change not announced to other instances', { error });
		}
	}

	private listened = false;

	/** Hears the other instances' changes (PostgreSQL only; a no-op without a client). */
	async listen(client: postgres.Sql | null): Promise<void> {
		if (!client) return;
		this.notifier = client;
		await client.listen(
			CHANNEL,
			(payload) => this.drop(payload),
			// Called again after a reconnection: what was announced while the connection was down is lost.
			() => {
				this.catalogue.clear();
				this.settings.clear();
				this.completed.clear();
				this.positioned.clear();
				this.settingsDropped();
				// postgres.js calls this at each attempt to listen again after an outage, many times a second:
				// said once at start, and then only at debug (the outage's own lines are db/outage.ts's).
				(this.listened ? log.debug : log.info)('listening for course changes', { channel: CHANNEL });
				this.listened = true;
			}
		);
	}

	/** How many readers' progress is kept (tests). */
	get readers(): number {
		return this.completed.size;
	}
}
