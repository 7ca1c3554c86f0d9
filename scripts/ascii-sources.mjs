// The built server's JavaScript written in ASCII alone, each other character as its `\uXXXX` escape. V8 keeps the
// source of every module it loads, as a string of one byte a character while every character is Latin-1, and of two
// bytes a character from the first other one — one « » or ’ in a comment doubles the whole file: the server's chunks
// held 25.6 MB of source strings, the largest (2.8 MB of code) 5.3 MB. Escaped, the embedded server starts at
// 216–219 MB instead of 227–228 and holds 8–21 MB less after a round of pages (7 December, two runs each).
//
// The escape means the same character wherever the code can hold one: in a string, an untagged template, a regular
// expression, an identifier, a comment. Not in a tagged template, whose tag may read the raw text (`String.raw`): a
// file with such a template keeps its characters there (none today). Nothing else moves: line numbers stay those
// of the code that was built.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Rewrites every `.js` file under `dir` (the client's excepted: a browser's memory is not ours to count) that holds
 * a character outside ASCII. Returns how many files it rewrote, and those left with characters in a tagged template.
 * @param {string} dir
 */
export function asciiSources(dir) {
	let rewritten = 0;
	/** @type {string[]} */
	const kept = [];
	for (const file of javascriptFiles(dir)) {
		const code = readFileSync(file, 'utf8');
		if (!NON_ASCII.test(code)) continue;
		const escaped = escapeOutsideTaggedTemplates(file, code);
		if (NON_ASCII.test(escaped)) kept.push(path.relative(dir, file));
		writeFileSync(file, escaped);
		rewritten++;
	}
	return { rewritten, kept };
}

/** @param {string} dir @returns {string[]} */
function javascriptFiles(dir) {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
		.map((entry) => path.join(entry.parentPath, entry.name))
		.filter((file) => !path.relative(dir, file).split(path.sep).includes('client'));
}

/**
 * @param {string} file
 * @param {string} code
 */
export function escapeOutsideTaggedTemplates(file, code) {
	/** @type {[number, number][]} */
	const tagged = [];
	const visit = (/** @type {ts.Node} */ node) => {
		if (ts.isTaggedTemplateExpression(node)) tagged.push([node.template.getStart(), node.template.getEnd()]);
		ts.forEachChild(node, visit);
	};
	visit(ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS));
	let out = '';
	let from = 0;
	for (const match of code.matchAll(/(\\*)([\u0080-\uffff])/g)) {
		const [, run = '', character = ''] = match;
		const at = match.index + run.length;
		if (tagged.some(([start, end]) => at >= start && at < end)) continue;
		// `\é` (an escape of a character that needs none) is `é`: the backslash goes with the character.
		const backslashes = run.length % 2 ? run.slice(1) : run;
		out += code.slice(from, match.index) + backslashes + escapeOf(character);
		from = at + 1;
	}
	return out + code.slice(from);
}

/** @param {string} character one UTF-16 code unit (a surrogate of a pair is escaped on its own, as JavaScript reads it) */
const escapeOf = (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
