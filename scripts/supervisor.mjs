// What `npm start` runs the server under (issue « Every door holds, part 2 », point 2): it binds HOST:PORT once
// and runs the current build's server as its child on that socket (file descriptor 3, LISTEN_FDS=1:
// src/server/inherited-socket.ts). The socket outlives each server: while one drains and the next starts, the
// connections that arrive wait in its queue and are answered by the next one — none is refused.
//   SIGTERM, SIGINT, SIGHUP  stop the server (it drains), then exit with its code (SIGHUP: the terminal closed);
//   SIGUSR2  while a server runs: stop it and keep the socket; while none does: start the current build's. Two
//            replace the server; `npm run upgrade` and `rollback` back up and change the build between the two
//            (scripts/upgrade-steps.mjs), while connections wait.
// A server that exits on its own ends the supervisor with its code, so that a service manager starts both again.
// A build made before this (a rollback to 0.5.0) binds the port itself: the socket is given up for it.
import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { getSystemErrorName } from 'node:util';

/**
 * `current()` names the server to start each time: `{ entry, inherits, backedUp }` (its server.js, whether it listens
 * on a socket handed down, and whether an upgrade has just backed the data up for it). Returns once the first server
 * is started; the process exits with the server.
 */
export async function supervise({ host, port, env, current }) {
	let socket = null;
	let server = null;
	let stopping = false;
	let holding = false;
	let waiting;

	const bind = async () => {
		const { address, family } = await lookup(host);
		// Bound, not listening: the server listens on it (and the queue it fills outlives the server). A handle whose
		// events this process never polls, so that it never accepts a connection itself.
		const handle = net._createServerHandle(address, port, family, undefined, 0);
		// libuv keeps a bind's EADDRINUSE for the listen, which the server makes on its own handle and never sees:
		// unbound, the socket would then listen on a port of the system's choosing. So the address is read back.
		const bound = {};
		if (typeof handle !== 'number') handle.getsockname(bound);
		if (typeof handle === 'number' || bound.port !== port) {
			if (typeof handle !== 'number') handle.close();
			const code = typeof handle === 'number' ? getSystemErrorName(handle) : 'EADDRINUSE';
			throw new Error(
				`${host}:${port} cannot be used (${code}): another server listens there? Stop it, or set PORT to a free port.`
			);
		}
		return handle;
	};

	const start = async () => {
		clearInterval(waiting);
		const { entry, inherits, backedUp } = current();
		if (inherits) socket ??= await bind();
		else if (socket) {
			socket.close();
			socket = null;
			console.log('The build to start binds its port itself: the socket is given up for it.');
		}
		const child = spawn(process.execPath, [...process.execArgv, entry], {
			stdio: socket ? ['inherit', 'inherit', 'inherit', socket.fd] : 'inherit',
			env: {
				...env,
				...(socket && { LISTEN_FDS: '1' }),
				// `npm run upgrade` backed the data up for this build a moment ago (releases.mjs, backedUpFor).
				...(backedUp && { BACKUP_BEFORE_MIGRATING: 'false' })
			}
		});
		server = child;
		// Not started at all (no memory, no such file): said, and the supervisor ends, as when a server fails.
		child.on('error', fail);
		child.on('exit', (code, signal) => {
			server = null;
			if (stopping) process.exit(code ?? 1);
			if (holding) {
				console.log(
					'The server stopped; its socket is kept: connections wait until SIGUSR2 starts the next.'
				);
				// Nothing else keeps this process alive meanwhile: the socket is not polled here.
				waiting = setInterval(() => {}, 60_000);
				return;
			}
			console.error(`The server exited (${signal ?? `code ${code}`}).`);
			process.exit(code || 1);
		});
	};

	const fail = (error) => {
		console.error(error.message);
		process.exit(1);
	};

	const stop = (signal) => {
		stopping = true;
		if (server) server.kill(signal);
		else process.exit(0);
	};
	for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(signal));
	process.on('SIGUSR2', () => {
		if (server) {
			if (holding) return; // already stopping
			holding = true;
			server.kill('SIGTERM');
		} else if (holding) {
			holding = false;
			start().catch(fail);
		}
	});

	await start().catch(fail);
}
