/**
 * The attempts the account's slow-down lets through past its free ones since `startedAt` (waits of 1, 2, 4 … s
 * between them): how far a burst gets depends on how long the machine takes to run it, so a test's bound says so
 * rather than guessing a speed.
 */
export function slowedThrough(startedAt: number): number {
	const seconds = Math.ceil((Date.now() - startedAt) / 1000);
	return Math.floor(Math.log2(seconds + 1));
}
