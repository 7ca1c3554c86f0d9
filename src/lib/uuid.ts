/**
 * Whether a string is a UUID (any version, either case): the route matcher `[id=uuid]` and the ids that come from
 * outside (a Stripe event's metadata) ask it. The schema is built once: building it is most of the cost.
 */
import { z } from 'zod';

const UUID = z.uuid();

export const isUuid = (value: string): boolean => UUID.safeParse(value).success;
