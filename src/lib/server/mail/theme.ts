/**
 * The colours of every e-mail, in one place. Mail clients understand neither CSS variables nor stylesheets, so
 * the values are literal here; the light palette repeats the site's design tokens (src/lib/styles/tokens.css), and
 * a test keeps the two in step. The dark theme is for messages that celebrate a step (the approval e-mail).
 */
export type MailTheme = 'light' | 'dark';

export interface Palette {
	/** Around the card. */
	page: string;
	/** The card itself. */
	card: string;
	ink: string;
	soft: string;
	line: string;
	accent: string;
	onAccent: string;
	/** The brand band at the top of the card. */
	band: string;
	onBand: string;
}

export const palettes: Record<MailTheme, Palette> = {
	light: {
		page: '#fbfaf7',
		card: '#ffffff',
		ink: '#1f2a37',
		soft: '#4b5563',
		line: '#e5e1d8',
		accent: '#8a4804',
		onAccent: '#ffffff',
		band: '#1f2a37',
		onBand: '#ffffff'
	},
	dark: {
		page: '#111827',
		card: '#1f2a37',
		ink: '#f9fafb',
		soft: '#d1d5db',
		line: '#374151',
		accent: '#fbeedd',
		onAccent: '#1f2a37',
		band: '#b45f06',
		onBand: '#ffffff'
	}
};
