/**
 * The two checks of an entry's fields (client-safe: the editor runs `publishProblems` before it asks to publish, and
 * shows the same messages the server would give):
 * - `draftShape`, when a draft is saved: only the model's keys, each of its type, within a hard size limit — a
 *   draft may be half written (empty, too short), never something else than the model's shape;
 * - `publishProblems`, when it is published: every rule of the model (lengths, counts, a slug's form, a cover's
 *   alternative text), each refusal naming its field in French (`services.2.title` → « Services › Service 3 ›
 *   Titre »).
 */
import { company } from '$lib/company';
import { PHOTO_VALUE } from '$lib/images';
import { internationalPhone, PHONE_MESSAGE } from './phone';
import { forbiddenCharacter, normaliseText } from '$lib/schemas/text';
import { SLUG_PATTERN, type FieldSpec, type Fields } from './model';

/** `{{company.brand}}`: the one spelling of a placeholder, in entries and in showcase mode's files alike. */
export const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/** The value of `{{company.brand}}`-like placeholders: the company file's fields, nothing else. */
export function placeholderValue(name: string, values: object = { company }): string | null {
	const value = name
		.split('.')
		.reduce<unknown>(
			(at, key) =>
				at && typeof at === 'object' && Object.hasOwn(at, key)
					? (at as Record<string, unknown>)[key]
					: undefined,
			values
		);
	return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** `text` with its placeholders filled; one that names nothing stays as typed (publishing refuses it). */
export const fillPlaceholders = (text: string, values: object = { company }): string =>
	text.replace(PLACEHOLDER, (whole, name: string) => placeholderValue(name, values) ?? whole);

/** A draft is refused past this (the whole JSON), whatever its fields say. */
export const DRAFT_MAX_BYTES = 200_000;

export type Problems = Record<string, string[]>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The draft to store, or the problems of its shape. Unknown keys are dropped; a missing key takes its empty
 * value, so that every saved draft has every field.
 */
export function draftShape(
	specs: readonly FieldSpec[],
	raw: unknown
): { fields: Fields } | { problems: Problems } {
	const problems: Problems = {};
	const fields = shapeOf(specs, raw, '', problems);
	return Object.keys(problems).length ? { problems } : { fields };
}

function shapeOf(specs: readonly FieldSpec[], raw: unknown, prefix: string, problems: Problems): Fields {
	const source = isRecord(raw) ? raw : {};
	if (!isRecord(raw)) add(problems, prefix || 'draft', 'Le brouillon doit être un objet de champs.');
	const out: Fields = {};
	for (const spec of specs) out[spec.key] = shapeOfField(spec, source[spec.key], prefix + spec.key, problems);
	return out;
}

function shapeOfField(spec: FieldSpec, value: unknown, path: string, problems: Problems): unknown {
	const wrongType = (expected: string) => add(problems, path, `${spec.label} : ${expected} attendu.`);
	switch (spec.kind) {
		case 'line':
		case 'text':
		case 'markdown':
		case 'slug':
			if (value === undefined || value === null) return '';
			if (typeof value !== 'string') return (wrongType('un texte'), '');
			return textOf(value, spec.kind === 'text' || spec.kind === 'markdown', path, spec.label, problems);
		case 'flag':
			if (value === undefined || value === null) return false;
			if (typeof value !== 'boolean') return (wrongType('oui ou non'), false);
			return value;
		case 'lines':
			if (value === undefined || value === null) return [];
			if (!Array.isArray(value) || value.some((line) => typeof line !== 'string'))
				return (wrongType('une liste de lignes'), []);
			if (value.length > 100) add(problems, path, `${spec.label} : 100 lignes au plus.`);
			return (value as string[]).map((line, i) =>
				textOf(line, false, `${path}.${i}`, `${spec.label} › ligne ${i + 1}`, problems)
			);
		case 'list':
			if (value === undefined || value === null) return [];
			if (!Array.isArray(value)) return (wrongType('une liste'), []);
			if (value.length > 100) add(problems, path, `${spec.label} : 100 éléments au plus.`);
			return value.slice(0, 100).map((item, i) => shapeOf(spec.fields, item, `${path}.${i}.`, problems));
		case 'group':
			return shapeOf(spec.fields, value ?? {}, `${path}.`, problems);
		case 'cover': {
			if (value === undefined || value === null) return null;
			if (!isRecord(value) || typeof value.value !== 'string' || typeof value.alt !== 'string')
				return (wrongType('une photo et son texte alternatif'), null);
			if (value.value && !PHOTO_VALUE.test(value.value))
				add(problems, `${path}.value`, NOT_A_PHOTO(spec.label));
			const alt = textOf(value.alt, false, `${path}.alt`, `${spec.label} › Texte alternatif`, problems);
			// Its width (from the upload's answer) gives the page its srcset.
			const width = Number.isInteger(value.width) && (value.width as number) > 0 ? value.width : null;
			return { value: value.value, alt, ...(width ? { width } : {}) };
		}
	}
}

/**
 * A text as it is kept: what a paste leaves for a line break made the field's own (schemas/text.ts, the forms'
 * rule), any other control character refused with the field named — never a feed that is no longer XML, nor a
 * « Numérique?SAS » printed on an attestation.
 */
function textOf(value: string, multiline: boolean, path: string, label: string, problems: Problems): string {
	const text = normaliseText(value, multiline);
	const refused = forbiddenCharacter(text, multiline);
	if (refused) add(problems, path, `${label} : caractère invisible non autorisé (${refused}), à retirer.`);
	return text;
}

const NOT_A_PHOTO = (label: string) =>
	`${label} : une photo envoyée par le bouton « Choisir une photo », et aucun autre fichier du stockage.`;

/** What stops these fields from being published, by field path; empty when they may go live. */
export function publishProblems(specs: readonly FieldSpec[], fields: Fields): Problems {
	const problems: Problems = {};
	checkAll(specs, fields, '', '', problems);
	return problems;
}

function checkAll(
	specs: readonly FieldSpec[],
	fields: Fields,
	prefix: string,
	labelPrefix: string,
	problems: Problems
) {
	for (const spec of specs)
		checkField(spec, fields[spec.key], prefix + spec.key, labelPrefix + spec.label, problems);
}

const chars = (n: number) => `${n} caractère${n > 1 ? 's' : ''}`;

function checkField(spec: FieldSpec, value: unknown, path: string, label: string, problems: Problems) {
	switch (spec.kind) {
		case 'line':
		case 'text':
		case 'markdown': {
			const text = typeof value === 'string' ? value.trim() : '';
			const min = 'min' in spec ? (spec.min ?? 1) : 1;
			if (!text) {
				if (!spec.optional) add(problems, path, `${label} : à remplir.`);
				return;
			}
			if (spec.kind === 'line' && /[\r\n]/.test(text)) add(problems, path, `${label} : une seule ligne.`);
			if (spec.kind === 'line' && spec.phone && !internationalPhone(text))
				add(problems, path, `${label} : ${PHONE_MESSAGE}.`);
			for (const [, name] of text.matchAll(PLACEHOLDER))
				if (placeholderValue(name!) === null)
					add(
						problems,
						path,
						`${label} : {{${name}}} ne correspond à aucun champ de la fiche de l’entreprise.`
					);
			const length = [...text].length;
			if (length < min || length > spec.max)
				add(
					problems,
					path,
					min === spec.max
						? `${label} : ${chars(min)} exactement (${length} aujourd’hui).`
						: `${label} : entre ${min} et ${spec.max} caractères (${length} aujourd’hui).`
				);
			return;
		}
		case 'slug': {
			const slug = typeof value === 'string' ? value : '';
			if (!SLUG_PATTERN.test(slug) || slug.length > 80)
				add(
					problems,
					path,
					`${label} : lettres minuscules sans accent, chiffres et tirets (« mon-article »), 80 caractères au plus.`
				);
			return;
		}
		case 'flag':
			return;
		case 'lines': {
			const lines = Array.isArray(value) ? (value as string[]) : [];
			countCheck(lines.length, spec.min ?? 0, spec.max, path, label, problems);
			lines.forEach((text, i) => {
				if (!text.trim() || [...text].length > spec.itemMax)
					add(problems, `${path}.${i}`, `${label} › ligne ${i + 1} : 1 à ${spec.itemMax} caractères.`);
			});
			return;
		}
		case 'list': {
			const items = Array.isArray(value) ? (value as Fields[]) : [];
			countCheck(items.length, spec.min ?? 0, spec.max, path, label, problems);
			items.forEach((item, i) =>
				checkAll(spec.fields, item, `${path}.${i}.`, `${label} › ${spec.item} ${i + 1} › `, problems)
			);
			return;
		}
		case 'group':
			checkAll(spec.fields, isRecord(value) ? value : {}, `${path}.`, `${label} › `, problems);
			return;
		case 'cover': {
			if (value === null || value === undefined) return;
			const cover = value as { value: string; alt: string };
			if (!PHOTO_VALUE.test(cover.value)) add(problems, `${path}.value`, NOT_A_PHOTO(label));
			const alt = cover.alt.trim();
			if (alt.length < 5 || alt.length > 200)
				add(problems, `${path}.alt`, `${label} › Texte alternatif : entre 5 et 200 caractères.`);
			return;
		}
	}
}

function countCheck(n: number, min: number, max: number, path: string, label: string, problems: Problems) {
	if (n < min || n > max)
		add(
			problems,
			path,
			min === max
				? `${label} : ${min} exactement (${n} aujourd’hui).`
				: `${label} : de ${min} à ${max} (${n} aujourd’hui).`
		);
}

function add(problems: Problems, path: string, message: string) {
	(problems[path] ??= []).push(message);
}
