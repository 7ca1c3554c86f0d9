/** The access policy alone, without any HTTP: who may pass a guard of the given level. */
import type { SessionUser } from './session';

export type Decision = 'allow' | 'unauthenticated' | 'forbidden';

export function decide(user: SessionUser | null, level: 'user' | 'admin'): Decision {
	if (!user) return 'unauthenticated';
	if (level === 'admin' && !user.isAdmin) return 'forbidden';
	return 'allow';
}
