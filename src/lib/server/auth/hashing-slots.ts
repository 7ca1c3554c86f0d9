/**
 * How many password hashes are computed at once (argon2id, 19 MiB each: password.ts): two, whatever the traffic and
 * the thread pool's size (four by default, more where UV_THREADPOOL_SIZE says so). 25 s of failed sign-ins from eight
 * clients on the embedded database peaked at 402 MB (VmHWM) with four side by side, at 373–390 MB with two, for as
 * many answers (3 840 before, 4 016–4 245 after); one at a time held no less (388–390 MB). The others wait their turn,
 * in order: a sign-in is slower under such a burst, never refused for it, and an attempt is still spent before its
 * hash is computed (sign-in.ts). The same queue for every hash, checked or made, so that an unknown e-mail waits as
 * long as a known one.
 */
export const HASHES_AT_ONCE = 2;

/**
 * A queue that runs at most `limit` tasks at a time, in the order they came; `waiting()` counts those in line,
 * `started()` those it has run (a test counts the hashes a sign-in spends).
 */
export function slots(limit: number) {
	let running = 0;
	let started = 0;
	const line: (() => void)[] = [];
	const inSlot = async <T>(work: () => Promise<T>): Promise<T> => {
		if (running >= limit) await new Promise<void>((resolve) => line.push(resolve));
		else running++;
		started++;
		try {
			return await work();
		} finally {
			// The slot passes to the next in line, or is given back.
			const next = line.shift();
			if (next) next();
			else running--;
		}
	};
	return Object.assign(inSlot, { waiting: () => line.length, started: () => started });
}

/** The one queue every password hash goes through. */
export const inHashingSlot = slots(HASHES_AT_ONCE);
