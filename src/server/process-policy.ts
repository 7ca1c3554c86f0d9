/**
 * What the process does with an error nothing caught (CONTRIBUTING.md, « Errors nothing caught »). Every path the
 * server answers goes through a wrapper that answers its errors (SvelteKit's handleError, own-paths.ts, `inRequest`
 * below); what still reaches the process is a bug of ours, and each kind has its policy:
 *
 * - a **rejected promise** nobody awaited is logged at error, with the request it belongs to, and the server keeps
 *   serving: a rejection leaves no synchronous code half-run, and the request it belonged to ends on its own
 *   (its client's close, or the server's timeouts);
 * - an **exception thrown where nothing catches it** (an event listener, a timer) is logged the same way, then the
 *   server stops as on SIGTERM — answers in flight finish, the database closes — and exits with 1, for its
 *   supervisor to start a clean one (systemd's `Restart=on-failure`, compose's `restart: unless-stopped`, the
 *   orchestrator's). Such a throw may have left any stream or state half-updated (Node.js's documentation says the
 *   same): carrying on would serve from a state no test has seen.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalErrorParts } from '../lib/server/http/problem';
import { REQUEST_ID_HEADER } from '../lib/server/http/request-log';
import { log } from '../lib/server/log';

/**
 * The request whose work is running: what an error that escapes is reported with. A promise carries the context it
 * was made in, so a rejection nobody awaited names its request; an exception thrown in a socket's listener runs in
 * the connection's context, and names none.
 */
const current = new AsyncLocalStorage<IncomingMessage>();

/**
 * Runs the server's answer to a request; a synchronous throw becomes a 500 with the request's id as its reference
 * and one log line — never an exit. The answer runs in no request context: entering one costs 6–8 µs of CPU an
 * answer (Node.js 24; a bare node:http server sending 73 KB took 50 µs an answer, 57–59 µs with `run` around it, on
 * 3 December), which the quick paths — a cached page, a known photo, answered by our own code, whose every promise
 * is awaited — need not pay. The way through the app enters it (`inRequestContext`).
 */
export function inRequest(
	req: IncomingMessage,
	res: ServerResponse,
	answer: (req: IncomingMessage, res: ServerResponse) => void
): void {
	try {
		answer(req, res);
	} catch (error) {
		const id = idOf(req);
		log.error('answer failed', { id, error });
		if (res.headersSent) return void res.destroy();
		const parts = internalErrorParts(id ?? '');
		if (!req.complete) res.setHeader('connection', 'close');
		res.writeHead(parts.status, parts.headers);
		res.end(parts.body);
	}
}

/** Runs `work` — the request's way through the app — in the request's context (see `current`). */
export function inRequestContext(req: IncomingMessage, work: () => void): void {
	current.run(req, work);
}

const idOf = (req: IncomingMessage) => {
	const id = req.headers[REQUEST_ID_HEADER];
	return typeof id === 'string' ? id : undefined;
};

/** The id of the request an error belongs to, when its context says so. */
const whose = (): { id: string | undefined } => {
	const req = current.getStore();
	return { id: req ? idOf(req) : undefined };
};

/** Installs the policy above; `stop` is the server's graceful stop, given the exit code. */
export function installProcessPolicy(stop: (reason: string, exitCode: number) => void): void {
	process.on('unhandledRejection', (error) => {
		log.error('unhandled rejection', { ...whose(), error });
	});
	process.on('uncaughtException', (error) => {
		log.error('uncaught exception: stopping', { ...whose(), error });
		stop('uncaughtException', 1);
	});
}
