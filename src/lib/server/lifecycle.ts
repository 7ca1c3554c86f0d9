/**
 * Shutdown hooks shared by the server entry (build/server.js) and the SvelteKit app. They are two separate
 * bundles in one process, so the registry is process-wide (process-wide.js) rather than a module variable that
 * each bundle would hold its own copy of.
 */
import { log } from './log';
import { processWide } from '../process-wide';

type Hook = () => Promise<unknown> | unknown;

const registry = processWide<Hook[]>('shutdown-hooks');

export function onShutdown(hook: Hook): void {
	registry.ensure(() => []).push(hook);
}

/** Runs every hook once, most recent first (what opened last closes first), and never throws. */
export async function runShutdownHooks(): Promise<void> {
	const hooks = registry.get() ?? [];
	registry.set([]);
	for (const hook of hooks.reverse()) {
		try {
			await hook();
		} catch (error) {
			console.error('shutdown hook failed', error);
		}
	}
}

const pending = processWide<Set<Promise<unknown>>>('background-tasks');

/**
 * Runs `task` after the answer has gone (an e-mail after the lead is stored): the visitor does not wait for it,
 * and shutdown does (`settleBackgroundTasks`). The task handles its own errors; this only keeps it from being
 * an unhandled rejection.
 */
export function inBackground<T>(task: Promise<T>): Promise<T> {
	const tasks = pending.ensure(() => new Set());
	const tracked = task.finally(() => tasks.delete(tracked));
	tracked.catch((error) => log.error('background task failed', { error }));
	tasks.add(tracked);
	return tracked;
}

/** Waits for the tasks still running, at most `timeoutMs`. */
export async function settleBackgroundTasks(timeoutMs: number): Promise<void> {
	const tasks = [...(pending.get() ?? [])];
	if (!tasks.length) return;
	let timer: ReturnType<typeof setTimeout> | undefined;
	await Promise.race([
		Promise.allSettled(tasks),
		new Promise((resolve) => {
			timer = setTimeout(resolve, timeoutMs);
		})
	]);
	clearTimeout(timer);
}
