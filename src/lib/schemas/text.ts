/**
 * The one way to declare a text field. PostgreSQL refuses a NUL byte in text, so a NUL that reached a query
 * would turn a typing accident (or a probe) into a 500 with the submission lost; other control characters mean
 * nothing in a name, an address or a password either. Refusing them here gives a 400 (API) or a French field
 * error (form) that names the field, on every route, before anything is stored. Client-safe.
 */
import { z } from 'zod';

export const CONTROL_CHARACTERS_MESSAGE = 'Ce champ contient des caractères non autorisés.';

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const DEL = 0x7f;

/** True when `value` holds a C0 control character (or DEL); tab and line breaks pass in multi-line text. */
export function hasForbiddenControl(value: string, multiline = false): boolean {
	for (let i = 0; i < value.length; i++) {
		const code = value.charCodeAt(i);
		if (code === DEL) return true;
		if (code < 0x20 && !(multiline && (code === TAB || code === LF || code === CR))) return true;
	}
	return false;
}

/**
 * `z.string()` that refuses control characters: none in a single-line field, only tab, LF and CR in a
 * multi-line one. The check comes first and aborts, so the field gets this one message and no other.
 */
export function textField({ multiline = false, error }: { multiline?: boolean; error?: string } = {}) {
	return z
		.string(error === undefined ? undefined : { error })
		.refine((value) => !hasForbiddenControl(value, multiline), {
			message: CONTROL_CHARACTERS_MESSAGE,
			abort: true
		});
}
