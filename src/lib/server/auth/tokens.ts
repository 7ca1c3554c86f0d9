/**
 * The single-use links' tokens (a password link, an e-mail change, a device link): the random token goes in the
 * e-mail, only its SHA-256 is stored, so that a copy of the database opens no link.
 */
import { createHash } from 'node:crypto';

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
