/**
 * Renders an e-mail component to a complete HTML document with `svelte/server`: Svelte escapes every value,
 * so no template builds HTML by hand. Each template pairs its component with a plain-text twin.
 */
import type { Component } from 'svelte';
import { render } from 'svelte/server';
import { palettes, type MailTheme } from './theme';

export interface Rendered {
	subject: string;
	html: string;
	text: string;
}

/** Svelte's hydration markers (`<!--[-->`, `<!--]-->`, `<!---->`…) mean nothing to a mail client. */
const HYDRATION_MARKERS = /<!--[[\]!]*-->/g;

/**
 * The document around a component that draws a Frame: the Frame puts its title in the head (`<svelte:head>`),
 * the page colours come from the theme, never from input.
 */
export function renderHtml<Props extends { theme?: MailTheme }>(
	component: Component<Props>,
	props: Props
): string {
	// render()'s overloads cannot be resolved for a generic component; the props are checked by this signature.
	const renderComponent = render as (c: Component<Props>, o: { props: Props }) => ReturnType<typeof render>;
	const { head, body } = renderComponent(component, { props });
	const colours = palettes[props.theme ?? 'light'];
	const strip = (html: string) => html.replace(HYDRATION_MARKERS, '');
	return [
		'<!doctype html>',
		'<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
		strip(head),
		`</head><body style="margin:0;padding:0;background:${colours.page};font-family:Arial,Helvetica,sans-serif;color:${colours.ink}">`,
		strip(body),
		'</body></html>'
	].join('\n');
}

/** The plain-text frame around a twin's body: the heading, the text, the sender's signature. */
export function textFrame(heading: string, body: string, signature: string): string {
	return `${heading}\n${'='.repeat(Math.min(heading.length, 60))}\n\n${body}\n\n--\n${signature}\n`;
}
