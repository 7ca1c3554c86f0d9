/**
 * Text fields that PostgreSQL will take (issue "Hardening", point 8): a NUL byte makes it refuse a whole row, and
 * other control characters have no business in what people type. Single-line fields refuse every control
 * character; multi-line fields keep tab, line feed and carriage return. Every text field of every schema starts
 * here, so that a bad character is a 400 naming its field, never a 500 with the submission lost. Client-safe.
 */
import { z } from 'zod';

export const CONTROL_CHARACTER_MESSAGE = 'Ce champ contient un caractère invisible non autorisé.';

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A one-line string: no control character at all. `error` is the message when the value is missing. */
export const lineText = (error?: string) =>
	z
		.string(error ? { error } : undefined)
		.refine((value) => !SINGLE_LINE_FORBIDDEN.test(value), CONTROL_CHARACTER_MESSAGE);

/** A multi-line string: tabs and line breaks allowed, no other control character. */
export const multilineText = (error?: string) =>
	z
		.string(error ? { error } : undefined)
		.refine((value) => !MULTI_LINE_FORBIDDEN.test(value), CONTROL_CHARACTER_MESSAGE);
