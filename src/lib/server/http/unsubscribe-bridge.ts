/**
 * How the production server entry reaches the reminders' one-click unsubscribe (RFC 8058), which lives in the app.
 * A mail provider POSTs `List-Unsubscribe=One-Click` to the link from its own servers, without an Origin header:
 * SvelteKit refuses any cross-site form POST before the app sees it, so the entry answers that POST itself
 * (src/server/one-click-unsubscribe.ts). At start-up the app puts its function here (from the init hook, in platform
 * mode); nothing of the app is imported here (the entry is bundled on its own).
 */
import { processWide } from '../../process-wide';

/** Where reminders' unsubscribe links point: `/rappels/{token}` (the page, for a person; the POST, for a machine). */
export const UNSUBSCRIBE_PREFIX = '/rappels/';

/** Turns a member's reminders off from a token: false when it is not one. */
export type UnsubscribeAnswer = (token: string) => Promise<boolean>;

const shared = processWide<UnsubscribeAnswer>('one-click-unsubscribe');

export function exposeUnsubscribe(answer: UnsubscribeAnswer): void {
	shared.set(answer);
}

export const exposedUnsubscribe = (): UnsubscribeAnswer | undefined => shared.get();
