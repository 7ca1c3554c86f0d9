/** What poppler says of a PDF, as the tests read it. */
import { execFileSync } from 'node:child_process';

/** The PDF's images as `pdfimages -list` lists them: each one's type, width and height (« image », « smask »). */
export const pdfImages = (file: string): string[][] =>
	execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
		.trim()
		.split('\n')
		.slice(2)
		.map((line) => line.trim().split(/\s+/).slice(2, 5));
