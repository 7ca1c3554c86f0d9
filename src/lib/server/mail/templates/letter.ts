/** The data behind a Letter.svelte e-mail, and its two parts rendered from it: HTML and the plain-text twin. */
import { company, companyAddressLine } from '$lib/company';
import { renderHtml, textFrame, type Rendered } from '../render';
import type { MailTheme } from '../theme';
import Letter from './Letter.svelte';

const signature = () => `L’équipe ${company.brand}`;
const footer = () => `${company.legalName} — ${companyAddressLine()}`;

export interface LetterData {
	subject: string;
	heading: string;
	paragraphs: string[];
	rows?: [string, string | null | undefined][];
	button?: { href: string; label: string };
	/** Paragraphs after the button. */
	after?: string[];
}

export function letter(data: LetterData, theme: MailTheme): Rendered {
	const rows = (data.rows ?? []).filter(([, value]) => value);
	const text = [
		...data.paragraphs,
		...(rows.length ? [rows.map(([label, value]) => `${label} : ${value}`).join('\n')] : []),
		...(data.button ? [`${data.button.label} : ${data.button.href}`] : []),
		...(data.after ?? []),
		signature()
	].join('\n\n');
	return {
		subject: data.subject,
		html: renderHtml(Letter, { ...data, rows: data.rows && rows, signature: signature(), theme }),
		text: textFrame(data.heading, text, footer())
	};
}
