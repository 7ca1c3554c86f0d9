import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { palettes } from '../theme';
import { MAIL_PREVIEWS } from './catalog';
import { leadAcknowledgement } from './lead-acknowledgement';
import type { LeadForMail } from './lead-for-mail';
import { leadNotification } from './lead-notification';

const hostile: LeadForMail = {
	kind: 'devis',
	name: 'Eve <script>alert(1)</script> "quoted" & co',
	email: 'eve@example.com',
	phone: null,
	company: null,
	city: 'Lyon\r\nBcc: victim@example.com',
	projectType: 'muret',
	message: 'Cliquez <a href="https://evil.example">ici</a>\n<img src=x onerror=alert(1)>',
	createdAt: new Date('2026-01-01T10:00:00Z')
};

describe('e-mail templates', () => {
	it.each(
		MAIL_PREVIEWS.flatMap((preview) => (['light', 'dark'] as const).map((theme) => ({ preview, theme })))
	)(
		'$preview.name renders in the $theme theme as a complete document with a text twin',
		({ preview, theme }) => {
			const mail = preview.render(theme);
			expect(mail.subject.length).toBeGreaterThan(5);
			expect(mail.html.startsWith('<!doctype html>\n<html lang="fr">')).toBe(true);
			expect(mail.html).toContain(
				`<title>${mail.subject.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</title>`
			);
			expect(mail.html).toContain(`background:${palettes[theme].page}`);
			expect(mail.html).not.toMatch(/<!--[[\]!]*-->/);
			expect(mail.html).toContain('</html>');
			expect(mail.text).not.toMatch(/<[a-z]/i);
			expect(mail.text.length).toBeGreaterThan(40);
		}
	);

	it('escapes what visitors typed: no markup of theirs reaches the HTML', () => {
		const { html, text, subject } = leadNotification(hostile, 'https://exemple.fr/admin/demandes');
		expect(html).not.toContain('<script');
		expect(html).not.toContain('<img src=x');
		expect(html).not.toContain('<a href="https://evil.example"');
		expect(html).toContain('Eve &lt;script>alert(1)&lt;/script> "quoted" &amp; co');
		// The subject is a header: line breaks typed into a field are folded into spaces.
		expect(subject).not.toMatch(/[\r\n]/);
		expect(text).toContain('Cliquez <a href="https://evil.example">ici</a>');
	});

	it('keeps the requester’s line breaks in the notification, as <br> (Outlook ignores pre-line)', () => {
		const { html } = leadNotification(hostile, 'https://exemple.fr/admin/demandes');
		expect(html).toMatch(/ici&lt;\/a>(?:<!--[^>]*-->)*<br\s*\/?>(?:<!--[^>]*-->)*&lt;img src=x/);
		expect(html).not.toContain('pre-line');
	});

	it('acknowledges with a fixed text that says when the answer comes, and the phone number', () => {
		for (const kind of ['contact', 'devis'] as const) {
			const { html, text } = leadAcknowledgement(kind);
			for (const part of [html, text]) {
				expect(part).toContain('48 heures ouvrées');
				expect(part).toContain('04 78 00 00 00');
			}
		}
	});

	it('takes its light colours from the site’s design tokens', () => {
		const tokens = readFileSync(path.resolve(import.meta.dirname, '../../../styles/tokens.css'), 'utf8');
		const token = (name: string) => new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6})`).exec(tokens)?.[1];
		expect(palettes.light.ink).toBe(token('ink'));
		expect(palettes.light.soft).toBe(token('ink-soft'));
		expect(palettes.light.page).toBe(token('paper'));
		expect(palettes.light.line).toBe(token('line'));
		expect(palettes.light.accent).toBe(token('accent-strong'));
	});
});
