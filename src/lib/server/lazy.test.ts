import { describe, expect, it } from 'vitest';
import { built, lazy } from './lazy';

class Counter {
	count = 0;
	increment() {
		return ++this.count;
	}
}

describe('lazy', () => {
	it('builds on first use only, once', () => {
		let built = 0;
		const value = lazy(() => (built++, new Counter()));
		expect(built).toBe(0);
		value.increment();
		value.increment();
		expect(built).toBe(1);
		expect(value.count).toBe(2);
	});

	it('keeps instanceof, bound methods, and functions held as properties with their own properties', () => {
		const fn = Object.assign(() => 'called', { listen: () => 'listening' });
		const holder = lazy(() => Object.assign(new Counter(), { fn }));
		expect(holder instanceof Counter).toBe(true);
		const { increment } = holder;
		expect(increment()).toBe(1);
		expect(holder.fn.listen()).toBe('listening');
		expect(holder.fn).toBe(fn);
	});

	it('hands over the object it stands for, built once, and leaves anything else as it is', () => {
		let made = 0;
		const value = lazy(() => (made++, new Counter()));
		const real = built(value);
		expect(made).toBe(1);
		expect(Object.getPrototypeOf(real)).toBe(Counter.prototype);
		expect(real).not.toBe(value);
		real.increment();
		// The same object the proxy reads: what one changes, the other sees.
		expect(value.count).toBe(1);
		expect(built(value)).toBe(real);
		const plain = new Counter();
		expect(built(plain)).toBe(plain);
	});
});
