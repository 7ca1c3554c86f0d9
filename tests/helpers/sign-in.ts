/** The password step of a sign-in, for tests that only need to know whether a password opens the account. */
import * as signInRules from '../../src/lib/server/auth/sign-in';

export const signIn = async (...args: Parameters<typeof signInRules.signIn>) =>
	(await signInRules.signIn(...args)).user;
