/**
 * The branded frame of every e-mail: table layout and inline styles (what mail clients understand), colours
 * from the design tokens, a plain-text twin. Every value put in goes through `escapeHtml`.
 */
import { company, companyAddressLine } from '$lib/content/company';

const colors = { ink: '#1f2a37', paper: '#fbfaf7', accent: '#8a4804', line: '#e5e1d8', soft: '#4b5563' };

export function escapeHtml(value: string): string {
	return value.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!
	);
}

/** Text with line breaks kept, escaped. */
export const paragraphHtml = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');

export interface Rendered {
	subject: string;
	html: string;
	text: string;
}

/** `bodyHtml` must already be escaped HTML built by a template; `bodyText` is plain text. */
export function frame(subject: string, heading: string, bodyHtml: string, bodyText: string): Rendered {
	const html = `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:${colors.paper};font-family:Arial,Helvetica,sans-serif;color:${colors.ink}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${colors.paper}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border:1px solid ${colors.line};border-radius:12px">
<tr><td style="background:${colors.ink};border-radius:12px 12px 0 0;padding:20px 28px;color:#ffffff;font-size:20px;font-weight:bold">${escapeHtml(company.brand)}</td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:${colors.ink}">${escapeHtml(heading)}</h1>
${bodyHtml}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid ${colors.line};font-size:12px;color:${colors.soft}">${escapeHtml(company.legalName)} — ${escapeHtml(companyAddressLine)}</td></tr>
</table></td></tr></table></body></html>`;
	const text = `${heading}\n${'='.repeat(Math.min(heading.length, 60))}\n\n${bodyText}\n\n--\n${company.legalName} — ${companyAddressLine}\n`;
	return { subject, html, text };
}

/** A two-column table of fields for notifications. */
export function fieldsTable(rows: [label: string, value: string | null | undefined][]): {
	html: string;
	text: string;
} {
	const present = rows.filter(([, v]) => v);
	const html = `<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse;font-size:15px">${present
		.map(
			([label, value]) =>
				`<tr><td style="padding:8px 12px 8px 0;vertical-align:top;color:${colors.soft};white-space:nowrap">${escapeHtml(label)}</td><td style="padding:8px 0;border-bottom:1px solid ${colors.line}">${paragraphHtml(value!)}</td></tr>`
		)
		.join('')}</table>`;
	const text = present.map(([label, value]) => `${label} : ${value}`).join('\n');
	return { html, text };
}

export function button(href: string, label: string): string {
	return `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;background:${colors.accent};color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-weight:bold">${escapeHtml(label)}</a></p>`;
}
