import { describe, expect, it } from 'vitest';
import { InheritedSocketError, inheritedSocket } from './inherited-socket';

describe('inheritedSocket', () => {
	it('is null when nothing was handed down: the server binds HOST and PORT', () => {
		expect(inheritedSocket({}, 42)).toBeNull();
		expect(inheritedSocket({ LISTEN_FDS: '' }, 42)).toBeNull();
	});

	it('takes descriptor 3 from systemd (LISTEN_PID is this process) and from npm start (no LISTEN_PID)', () => {
		expect(inheritedSocket({ LISTEN_FDS: '1', LISTEN_PID: '42' }, 42)).toEqual({ fd: 3 });
		expect(inheritedSocket({ LISTEN_FDS: '1' }, 42)).toEqual({ fd: 3 });
	});

	it('leaves a socket meant for another process alone', () => {
		expect(inheritedSocket({ LISTEN_FDS: '1', LISTEN_PID: '41' }, 42)).toBeNull();
	});

	it('refuses several sockets in words', () => {
		expect(() => inheritedSocket({ LISTEN_FDS: '2', LISTEN_PID: '42' }, 42)).toThrow(InheritedSocketError);
		expect(() => inheritedSocket({ LISTEN_FDS: '2' }, 42)).toThrow(/exactly one/);
	});

	it('removes the variables once read: nothing the server starts takes the socket for its own', () => {
		const env: NodeJS.ProcessEnv = {
			LISTEN_FDS: '1',
			LISTEN_PID: '42',
			LISTEN_FDNAMES: 'atelier',
			KEEP: 'x'
		};
		inheritedSocket(env, 42);
		expect(env).toEqual({ KEEP: 'x' });
	});
});
