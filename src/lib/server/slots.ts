/**
 * Work that takes much CPU or memory at once (an image transform, a password hash) runs in a few slots with a
 * short queue; past that, 503 with Retry-After rather than a pile-up that would hold memory for every waiter.
 */
import { ServiceUnavailableError } from './errors';

export class Slots {
	private running = 0;
	private readonly waiting: (() => void)[] = [];
	constructor(
		private readonly capacity: number,
		private readonly queueLimit: number,
		/** The 503's message, in French: what is busy. */
		private readonly busyMessage: string
	) {}

	async run<T>(task: () => Promise<T>): Promise<T> {
		if (this.running >= this.capacity) {
			if (this.waiting.length >= this.queueLimit) throw new ServiceUnavailableError(this.busyMessage, 5);
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		} else {
			this.running++;
		}
		try {
			return await task();
		} finally {
			const next = this.waiting.shift();
			if (next) next();
			else this.running--;
		}
	}
}
