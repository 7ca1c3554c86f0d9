import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DraftKeeper, type SaveAnswer } from './draft-keeper';
import type { Fields } from './model';

function memory() {
	const kept = new Map<string, string>();
	return {
		kept,
		getItem: (k: string) => kept.get(k) ?? null,
		setItem: (k: string, v: string) => void kept.set(k, v),
		removeItem: (k: string) => void kept.delete(k)
	};
}

function keeper(answers: ((version: number, fields: Fields) => SaveAnswer)[], version = 1) {
	const storage = memory();
	const sent: { version: number; fields: Fields }[] = [];
	const states: string[] = [];
	const k = new DraftKeeper(
		{
			storage,
			key: 'k',
			save: async (v, fields) => {
				sent.push({ version: v, fields });
				const answer = answers.shift();
				if (!answer) throw new Error('no answer left');
				return answer(v, fields);
			},
			onChange: (x) => states.push(x.state),
			delayMs: 1000,
			retryMs: 5000
		},
		version,
		{ title: 'Avant' }
	);
	return { k, storage, sent, states };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the editor’s draft keeper', () => {
	it('keeps each change in the browser at once, sends it after the pause, and forgets the copy once saved', async () => {
		const { k, storage, sent } = keeper([(v) => ({ status: 200, version: v + 1 })]);
		k.changed({ title: 'Après' });
		expect(JSON.parse(storage.kept.get('k')!)).toMatchObject({ version: 1, fields: { title: 'Après' } });
		expect(sent).toEqual([]);
		await vi.advanceTimersByTimeAsync(1000);
		expect(sent).toEqual([{ version: 1, fields: { title: 'Après' } }]);
		expect(k.state).toBe('saved');
		expect(k.version).toBe(2);
		expect(storage.kept.has('k')).toBe(false);
	});

	it('sends one request for a burst of keystrokes', async () => {
		const { k, sent } = keeper([(v) => ({ status: 200, version: v + 1 })]);
		for (const title of ['A', 'Ap', 'Apr', 'Aprè', 'Après']) {
			k.changed({ title });
			await vi.advanceTimersByTimeAsync(300);
		}
		await vi.advanceTimersByTimeAsync(1000);
		expect(sent.map((s) => s.fields.title)).toEqual(['Après']);
	});

	it('a stale version is a conflict: nothing is sent again, the copy stays, « keep mine » saves over the current version', async () => {
		const { k, storage, sent } = keeper([
			() => ({ status: 409, conflict: { version: 5, draft: { title: 'Autre onglet' }, live: null } }),
			(v) => ({ status: 200, version: v + 1 })
		]);
		k.changed({ title: 'Le mien' });
		await vi.advanceTimersByTimeAsync(1000);
		expect(k.state).toBe('conflict');
		expect(k.conflict?.draft).toEqual({ title: 'Autre onglet' });
		k.changed({ title: 'Le mien, encore' });
		await vi.advanceTimersByTimeAsync(5000);
		expect(sent).toHaveLength(1);
		expect(JSON.parse(storage.kept.get('k')!).fields.title).toBe('Le mien, encore');
		await k.keepMine();
		expect(sent[1]).toEqual({ version: 5, fields: { title: 'Le mien, encore' } });
		expect(k.state).toBe('saved');
	});

	it('« take theirs » adopts the saved text and its version, and drops my copy', async () => {
		const { k, storage } = keeper([
			() => ({ status: 409, conflict: { version: 7, draft: null, live: { title: 'En ligne' } } })
		]);
		k.changed({ title: 'Le mien' });
		await vi.advanceTimersByTimeAsync(1000);
		expect(k.takeTheirs()).toEqual({ title: 'En ligne' });
		expect(k.version).toBe(7);
		expect(k.state).toBe('saved');
		expect(storage.kept.has('k')).toBe(false);
	});

	it('an expired session keeps the copy and sends it once signed in again', async () => {
		const { k, storage, sent } = keeper([() => ({ status: 401 }), (v) => ({ status: 200, version: v + 1 })]);
		k.changed({ title: 'Tapé hors session' });
		await vi.advanceTimersByTimeAsync(1000);
		expect(k.state).toBe('expired');
		expect(k.unsaved).toBe(true);
		expect(storage.kept.has('k')).toBe(true);
		expect(await k.retry()).toBe(true);
		expect(sent.at(-1)).toEqual({ version: 1, fields: { title: 'Tapé hors session' } });
		expect(storage.kept.has('k')).toBe(false);
	});

	it('a network failure is tried again by itself, the copy kept meanwhile', async () => {
		const { k, storage, sent } = keeper([() => ({ status: 0 }), (v) => ({ status: 200, version: v + 1 })]);
		k.changed({ title: 'Hors ligne' });
		await vi.advanceTimersByTimeAsync(1000);
		expect(k.state).toBe('offline');
		expect(storage.kept.has('k')).toBe(true);
		await vi.advanceTimersByTimeAsync(5000);
		expect(sent).toHaveLength(2);
		expect(k.state).toBe('saved');
	});

	it('recovers an earlier visit’s copy made from its own version, and sends it', async () => {
		const { k, storage, sent } = keeper([(v) => ({ status: 200, version: v + 1 })], 3);
		storage.setItem('k', JSON.stringify({ version: 2, fields: { title: 'Gardé' }, keptAt: '' }));
		expect(k.recover({ title: 'Avant' })?.fields).toEqual({ title: 'Gardé' });
		await vi.advanceTimersByTimeAsync(0);
		// Made from version 2: the server (now at 3) decides whether that is a conflict.
		expect(sent).toEqual([{ version: 2, fields: { title: 'Gardé' } }]);
		// A copy identical to what the server has is simply dropped.
		const again = keeper([]);
		again.storage.setItem('k', JSON.stringify({ version: 1, fields: { title: 'Avant' }, keptAt: '' }));
		expect(again.k.recover({ title: 'Avant' })).toBeNull();
		expect(again.storage.kept.has('k')).toBe(false);
	});

	it('text typed while a save is on its way is sent after it, with the version that save returned', async () => {
		let release: (answer: SaveAnswer) => void = () => {};
		const storage = memory();
		const sent: { version: number; fields: Fields }[] = [];
		const k = new DraftKeeper(
			{
				storage,
				key: 'k',
				save: (version, fields) => {
					sent.push({ version, fields });
					return sent.length === 1
						? new Promise<SaveAnswer>((resolve) => (release = resolve))
						: Promise.resolve({ status: 200, version: version + 1 });
				},
				onChange: () => {},
				delayMs: 1000
			},
			1,
			{ title: '' }
		);
		k.changed({ title: 'Un' });
		await vi.advanceTimersByTimeAsync(1000);
		k.changed({ title: 'Un deux' });
		release({ status: 200, version: 2 });
		await vi.advanceTimersByTimeAsync(1000);
		expect(sent).toEqual([
			{ version: 1, fields: { title: 'Un' } },
			{ version: 2, fields: { title: 'Un deux' } }
		]);
		expect(k.state).toBe('saved');
		expect(storage.kept.has('k')).toBe(false);
	});
});
