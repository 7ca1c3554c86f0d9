/**
 * The listening socket a supervisor hands down (issue « Every door holds, part 2 », point 2): `npm start`
 * (scripts/start.mjs) binds the address once and keeps it while the server it runs is replaced — an upgrade, a
 * rollback, a restart — so that connections arriving meanwhile wait in the socket's queue and are answered by the
 * next server, never refused. systemd's socket activation passes one the same way (sd_listen_fds(3)): file
 * descriptor 3, `LISTEN_FDS=1`, and `LISTEN_PID` naming this process — or unset, from our supervisor, which cannot
 * know its child's pid before the child starts.
 */

/** The first descriptor sd_listen_fds(3) passes (SD_LISTEN_FDS_START). */
const FIRST_PASSED_FD = 3;

export class InheritedSocketError extends Error {}

/**
 * `{ fd: 3 }` when a socket was handed down to this process, else null (the server binds HOST and PORT itself).
 * The variables are removed once read, so that a process this one starts does not take the socket for its own.
 */
export function inheritedSocket(
	// Not configuration an operator sets: what the process that started this one handed down with the descriptor.
	// eslint-disable-next-line no-restricted-properties
	env: NodeJS.ProcessEnv = process.env,
	pid = process.pid
): { fd: number } | null {
	const count = env.LISTEN_FDS;
	const owner = env.LISTEN_PID;
	delete env.LISTEN_FDS;
	delete env.LISTEN_PID;
	delete env.LISTEN_FDNAMES;
	if (count === undefined || count === '') return null;
	// Meant for another process (a shell started by a socket-activated unit passed its variables on).
	if (owner !== undefined && owner !== '' && owner !== String(pid)) return null;
	if (count !== '1')
		throw new InheritedSocketError(
			`LISTEN_FDS=${count}: the server listens on one socket; give it exactly one (one ListenStream= in the .socket unit).`
		);
	return { fd: FIRST_PASSED_FD };
}
