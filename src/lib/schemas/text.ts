/**
 * Text fields that PostgreSQL, XML and a PDF will take (issues "Hardening", point 8, and « Content, part 2 »): a NUL
 * byte makes PostgreSQL refuse a whole row, a control character makes a feed no longer XML and prints as « ? » on
 * an attestation, and none has any business in what people type. One rule for every form and the content editor:
 * - what a paste leaves for a line break (a vertical tab from Word, a form feed, U+0085, U+2028/2029) becomes one —
 *   a line feed in a multi-line field, a space in a one-line field; a carriage return and line feed, one line feed;
 * - every other control character (C0 but tab and line feed in multi-line fields, DEL, C1) is refused, the field
 *   named, never stored.
 * Every text field of every schema starts here, so that a bad character is a 400 naming its field, never a 500
 * with the submission lost. Client-safe.
 */
import { z } from 'zod';

export const CONTROL_CHARACTER_MESSAGE = 'Ce champ contient un caractère invisible non autorisé.';

/** What pasted text uses for a line break besides the line feed. */
// eslint-disable-next-line no-control-regex -- the characters a paste leaves are the point
const PASTED_BREAKS = /\r\n|[\r\u000b\u000c\u0085\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/;

/** `value` with its pasted line breaks made the field's own: a line feed (multi-line) or a space (one line). */
export const normaliseText = (value: string, multiline: boolean): string =>
	value.replace(PASTED_BREAKS, multiline ? '\n' : ' ');

/** Whether `value`, once normalised, still holds a control character the field refuses. */
export const hasForbiddenCharacter = (value: string, multiline: boolean): boolean =>
	(multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(value);

/** The first refused character of `value`, as « U+0001 », for a message that says which. */
export function forbiddenCharacter(value: string, multiline: boolean): string | null {
	const match = (multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).exec(value);
	return match ? `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null;
}

/** A one-line string: pasted breaks become spaces, no other control character. `error`: the message when missing. */
export const lineText = (error?: string) =>
	z
		.string(error ? { error } : undefined)
		.overwrite((value) => normaliseText(value, false))
		.refine((value) => !hasForbiddenCharacter(value, false), CONTROL_CHARACTER_MESSAGE);

/** A multi-line string: pasted breaks become line feeds, tabs kept, no other control character. */
export const multilineText = (error?: string) =>
	z
		.string(error ? { error } : undefined)
		.overwrite((value) => normaliseText(value, true))
		.refine((value) => !hasForbiddenCharacter(value, true), CONTROL_CHARACTER_MESSAGE);

/**
 * An editor's text cut at its blank lines into blocks, each the list of its lines trimmed, empty ones left out: how
 * a quiz and the positioning at entry are written (one question a block).
 */
export const textBlocks = (text: string): string[][] =>
	text
		.replace(/\r\n?/g, '\n')
		.split(/\n\s*\n/)
		.map((block) =>
			block
				.split('\n')
				.map((line) => line.trim())
				.filter(Boolean)
		)
		.filter((lines) => lines.length);
