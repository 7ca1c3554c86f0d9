import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from './errors';
import { Slots } from './slots';

describe('Slots', () => {
	it('runs at most `capacity` tasks, queues a few, and refuses the rest with 503 + Retry-After', async () => {
		const slots = new Slots(2, 1, 'Occupé.');
		let running = 0;
		let peak = 0;
		const releases: (() => void)[] = [];
		const task = () =>
			slots.run(async () => {
				running++;
				peak = Math.max(peak, running);
				await new Promise<void>((r) => releases.push(r));
				running--;
			});
		const accepted = [task(), task(), task()];
		await new Promise((r) => setTimeout(r, 0));
		expect(running).toBe(2);
		const refused = task();
		await expect(refused).rejects.toBeInstanceOf(ServiceUnavailableError);
		await refused.catch((e: ServiceUnavailableError) => expect(e.extra.headers?.['retry-after']).toBe('5'));
		while (releases.length) {
			releases.shift()!();
			await new Promise((r) => setTimeout(r, 0));
		}
		await Promise.all(accepted);
		expect(peak).toBe(2);
	});
});
