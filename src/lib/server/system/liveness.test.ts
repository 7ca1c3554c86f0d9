import { describe, expect, it } from 'vitest';
import { alive, LIVENESS_WAIT_MS } from './index';

/** Which of the two settles first: the liveness answer, or a timer far past its wait. */
const settlesFirst = async (answer: Promise<boolean>) =>
	Promise.race([
		answer.then((value) => ({ value })),
		new Promise((r) => setTimeout(r, LIVENESS_WAIT_MS * 10))
	]);

describe('liveness (/healthz)', () => {
	it('answers alive at once while the database is busy (a backup holds the embedded one), never waiting for it', async () => {
		const never = () => new Promise<boolean>(() => {});
		expect(await settlesFirst(alive(never, () => false))).toEqual({ value: true });
	});

	it('answers down when the database fails, or is known lost', async () => {
		expect(
			await alive(
				async () => false,
				() => false
			)
		).toBe(false);
		expect(
			await alive(
				async () => true,
				() => true
			)
		).toBe(false);
		expect(
			await alive(
				async () => true,
				() => false
			)
		).toBe(true);
	});
});
