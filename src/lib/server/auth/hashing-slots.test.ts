import { describe, expect, it } from 'vitest';
import { hashPassword } from './password';
import { HASHES_AT_ONCE, inHashingSlot, slots } from './hashing-slots';
import { verifyPassword } from './password-check';

describe('slots', () => {
	it('runs at most `limit` tasks at once, the others in the order they came, and survives a failing one', async () => {
		const inSlot = slots(2);
		let running = 0;
		let most = 0;
		const started: number[] = [];
		const task = (n: number) => () =>
			new Promise<number>((resolve, reject) => {
				running++;
				most = Math.max(most, running);
				started.push(n);
				setTimeout(() => {
					running--;
					if (n === 3) reject(new Error('boom'));
					else resolve(n);
				}, 5);
			});
		const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((n) => inSlot(task(n))));
		expect(most).toBe(2);
		expect(started).toEqual([1, 2, 3, 4, 5, 6]);
		expect(results.map((r) => r.status)).toEqual([
			'fulfilled',
			'fulfilled',
			'rejected',
			'fulfilled',
			'fulfilled',
			'fulfilled'
		]);
		// The queue is free again afterwards: two more start at once.
		const times: number[] = [];
		await Promise.all([7, 8].map((n) => inSlot(async () => times.push(n))));
		expect(times).toEqual([7, 8]);
	});
});

describe('password hashes', () => {
	it(`go through the one queue, checked or made: ${HASHES_AT_ONCE} at once, the others in line`, async () => {
		// The stored hash first: awaited between the queued calls, it let some of them finish before the count (a
		// failure on Node 26 in CI, 3 waiting instead of 4).
		const stored = await hashOf;
		const made = Array.from({ length: 4 }, (_, i) => hashPassword(`une phrase de passe ${i}`));
		const checked = [verifyPassword(stored, 'une autre'), verifyPassword(stored, 'la bonne')];
		await Promise.resolve();
		expect(inHashingSlot.waiting()).toBe(6 - HASHES_AT_ONCE);
		await Promise.all([...made, ...checked]);
		expect(inHashingSlot.waiting()).toBe(0);
	});
});

const hashOf = hashPassword('la bonne');
