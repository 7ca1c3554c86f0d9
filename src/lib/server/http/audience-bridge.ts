/**
 * How the server entry counts the audience (src/server/audience.ts): the insights domain holds the process's tally,
 * and the init hook exposes it at start-up (what `startAudienceWriter` answers); the entry counts each answer into it.
 * Nothing of the app is imported here: the entry is bundled on its own.
 */
import type { CountableRequest } from '../insights/audience';
import { processWide } from '../../process-wide';

/** What the entry may do with the tally: offer it an answer; what counts is the tally's to decide. */
export interface CountingTally {
	count(request: CountableRequest, ownHost: string): void;
}

const shared = processWide<CountingTally>('audience-counting');

export function exposeAudienceTally(tally: CountingTally): void {
	shared.set(tally);
}

/** The tally the app exposed; undefined before start-up has done it, or with the audience off. */
export const exposedAudienceTally = (): CountingTally | undefined => shared.get();
