/**
 * Security e-mails (issue "Trust, part 2", point 9): what changed on an account is told to its owner, with when
 * and from which device — after the answer, in the background (a mail server down never undoes the change, and
 * the e-mails table keeps the failure for the admin to see).
 */
import { inBackground } from '../lifecycle';
import { sendWith, type Circumstances, type MailDeps } from '../mail';
import type { Rendered } from '../mail/render';
import { describeDevice, describeNetwork, keptUserAgent, networkOf } from './devices';
import type { SignInOrigin } from './session';

/** Where a signed-in user's change came from: the e-mails that tell them about it name the device. */
export interface ChangeOrigin {
	sessionId: string;
	userAgent: string | null;
	address: string;
}

/** The request that made the change; a command or another person's action has none. */
export const circumstancesOf = (origin: SignInOrigin | null, at = new Date()): Circumstances => ({
	at,
	device: origin ? describeDevice(keptUserAgent(origin.userAgent)) : null,
	network: origin?.address ? describeNetwork(networkOf(origin.address)) : null
});

export function notify(
	mail: MailDeps,
	to: { name: string; email: string },
	template: string,
	rendered: Rendered
): void {
	inBackground(sendWith(mail, { to: { name: to.name, address: to.email }, template, ...rendered }));
}
