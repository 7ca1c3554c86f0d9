/**
 * The build's ASCII pass (scripts/ascii-sources.mjs): each form the code can hold a character in keeps its meaning,
 * read back by the engine itself; a tagged template keeps its raw text.
 */
import { describe, expect, it } from 'vitest';
import { escapeOutsideTaggedTemplates } from '../../scripts/ascii-sources.mjs';

const evaluate = (code: string) => new Function(`${code}; return result;`)() as unknown;

describe('escapeOutsideTaggedTemplates', () => {
	it.each([
		['a string', `const result = "Déjà « vu » — l’été";`],
		['an untagged template', 'const x = 2; const result = `${x} mètres²`;'],
		['an escape of a character that needs none', `const result = "\\é";`],
		['a backslash escaped before the character', `const result = "\\\\é";`],
		['a regular expression', `const result = "Ça va".replace(/ç/iu, "c") + /[àâ]/.test("â");`],
		['a character outside the basic plane', `const result = "🧱" + /🧱/u.test("🧱");`],
		['an identifier', `const café = 1; const result = café + 1;`],
		['a comment', `// Les « guillemets »\nconst result = 1; /* — */`]
	])('%s means what it meant, in ASCII', (_, code) => {
		const escaped = escapeOutsideTaggedTemplates('planted.js', code);
		expect(escaped).not.toMatch(/[\u0080-\uffff]/);
		expect(evaluate(escaped)).toEqual(evaluate(code));
	});

	it('keeps a tagged template as it was (its raw text is the tag’s to read)', () => {
		const code = 'const result = String.raw`l’été` + "é";';
		const escaped = escapeOutsideTaggedTemplates('planted.js', code);
		expect(escaped).toContain('String.raw`l’été`');
		expect(evaluate(escaped)).toBe('l’étéé');
	});

	it('moves no line', () => {
		const code = '// « un »\nconst a = "é";\n\nconst result = new Error("x").stack;';
		expect(escapeOutsideTaggedTemplates('planted.js', code).split('\n').length).toBe(code.split('\n').length);
	});
});
