/**
 * A lesson video's transcript, made from its captions (issue « Experience, part 4 », point 7): what the members of
 * the best course platforms read under a video — to skim before watching, to find a passage again, or instead of
 * listening — at no cost to the trainer, who already uploads the captions. In the page, so that the browser's search
 * finds it; each paragraph says when it is said.
 *
 * WebVTT as the trainer's tools write it: the header, then blocks — a cue (an optional id, a timing line with
 * `-->`, its text), or a NOTE, STYLE or REGION block, which are not said. The text loses its markup (`<v Julie>`,
 * `<i>`, timestamps) and its character references; a cue repeated by rolling captions is said once.
 */

/** One paragraph of the transcript: when it begins in the video (seconds), and what is said. */
export interface TranscriptParagraph {
	at: number;
	text: string;
}

/** A silence at least this long (seconds) begins a new paragraph. */
const PAUSE_SECONDS = 2;
/** Past this length, a paragraph ends at the next end of a sentence. */
const PARAGRAPH_CHARACTERS = 400;

const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: '\u00a0',
	lrm: '',
	rlm: ''
};

/** `00:01:02.500` or `01:02.500` in seconds; NaN for anything else. */
function seconds(timestamp: string): number {
	const match = /^(?:(\d+):)?([0-5]\d):([0-5]\d)\.(\d{3})$/.exec(timestamp.trim());
	if (!match) return Number.NaN;
	const [, hours = '0', minutes, secs, millis] = match;
	return Number(hours) * 3600 + Number(minutes) * 60 + Number(secs) + Number(millis) / 1000;
}

/** A cue line's words: no tags, references decoded, spaces folded (but the no-break ones French puts before « : »). */
function plainText(line: string): string {
	return line
		.replace(/<[^>]*>/g, '')
		.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
			if (name[0] === '#') {
				const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
				return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
			}
			return ENTITIES[name.toLowerCase()] ?? whole;
		})
		.replace(/[ \t]+/g, ' ')
		.trim();
}

export function transcriptOf(vtt: string): TranscriptParagraph[] {
	const blocks = vtt
		.replace(/^\uFEFF/, '')
		.replace(/\r\n?/g, '\n')
		.split(/\n{2,}/)
		.slice(1);
	const paragraphs: TranscriptParagraph[] = [];
	let current: TranscriptParagraph | null = null;
	let lastEnd = Number.NaN;
	let lastText = '';
	let lastLine = '';
	for (const block of blocks) {
		const lines = block.split('\n');
		const timing = lines.findIndex((line) => line.includes('-->'));
		// NOTE, STYLE and REGION blocks have no timing line; a timing line is at most the second line (after an id).
		if (timing < 0 || timing > 1 || /^(NOTE|STYLE|REGION)\b/.test(lines[0]!)) continue;
		const [startText = '', rest = ''] = lines[timing]!.split('-->');
		const start = seconds(startText);
		const end = seconds(rest.trim().split(/\s+/)[0] ?? '');
		if (Number.isNaN(start)) continue;
		const cueLines = lines
			.slice(timing + 1)
			.map(plainText)
			.filter(Boolean);
		// Rolling captions show the last line again at the top of the next cue: said once.
		if (cueLines[0] !== undefined && cueLines[0] === lastLine) cueLines.shift();
		const text = cueLines.join(' ');
		if (!text || text === lastText) continue;
		const pause = !Number.isNaN(lastEnd) && start - lastEnd >= PAUSE_SECONDS;
		const long =
			current !== null && current.text.length >= PARAGRAPH_CHARACTERS && /[.!?…»]$/.test(current.text);
		if (!current || pause || long) {
			current = { at: Math.floor(start), text };
			paragraphs.push(current);
		} else current.text += ` ${text}`;
		lastText = text;
		lastLine = cueLines.at(-1)!;
		lastEnd = Number.isNaN(end) ? start : end;
	}
	return paragraphs;
}
