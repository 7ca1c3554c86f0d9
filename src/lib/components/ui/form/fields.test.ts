/**
 * The form parts rendered on the server, as SvelteKit renders a page: each field takes its value, errors and
 * constraints from the <Form> around it, by name, and ties its error text to the control for assistive technology.
 */
import { superValidate } from 'sveltekit-superforms';
import { zod4 } from 'sveltekit-superforms/adapters';
import { describe, expect, it } from 'vitest';
import { stepYouSchema } from '$lib/schemas/candidature';
import { browserPattern, controlAttributes } from './context';
import { renderAsPage } from '../../../../../tests/helpers/render-page';
import Harness from './test/Harness.svelte';
import { harnessSchema } from './test/harness-schema';

const adapter = zod4(harnessSchema);
const html = (data: Awaited<ReturnType<typeof superValidate>>) => renderAsPage(Harness, { data } as never);

/** The element whose opening tag contains `marker`, as one string of attributes. */
const tag = (body: string, marker: string) =>
	body.match(new RegExp(`<[a-z]+[^>]*${marker}[^>]*>`))?.[0] ?? '';

describe('form fields from context', () => {
	it('render a label, the value and the schema constraints for each kind', async () => {
		const form = await superValidate(
			{ email: 'anne@exemple.fr', motivation: 'Je veux apprendre', format: 'confirme', consent: true },
			adapter
		);
		const body = html(form);
		expect(body).toMatch(/<form method="POST" novalidate="">/);
		expect(tag(body, 'id="field-email"')).toMatch(/value="anne@exemple.fr"/);
		expect(tag(body, 'id="field-email"')).toMatch(/required=""/);
		expect(tag(body, 'id="field-email"')).toMatch(/aria-describedby="field-email-hint"/);
		expect(body).toContain('<label for="field-email"');
		expect(tag(body, 'id="field-motivation"')).toMatch(/minlength="10"/);
		expect(body).toMatch(/<textarea[^>]*id="field-motivation"[^>]*>Je veux apprendre<\/textarea>/);
		// Radio group: a fieldset with its legend; the chosen value is checked.
		expect(body).toMatch(/<fieldset[^>]*id="field-format"[^>]*role="radiogroup"/);
		expect(body).toMatch(/<legend[^>]*>Format<\/legend>/);
		expect(tag(body, 'value="confirme" checked')).toMatch(/type="radio"/);
		expect(tag(body, 'value="debutant"')).not.toMatch(/checked/);
		// Checkbox: checked from a boolean value, its label points at it.
		expect(tag(body, 'id="field-consent"')).toMatch(/type="checkbox"[^>]*checked=""/);
		expect(body).toContain('<label for="field-consent"');
		expect(body).not.toMatch(/aria-invalid/);
	});

	// What a person may post: not what the schema wants.
	const invalid: Record<string, unknown> = {
		email: 'non',
		motivation: 'court',
		format: 'autre',
		consent: false
	};

	it('show each error under its field, tied by aria-describedby and aria-invalid', async () => {
		const form = await superValidate(invalid, adapter);
		expect(form.valid).toBe(false);
		const body = html(form);
		for (const [name, text] of [
			['email', 'Adresse e-mail invalide.'],
			['motivation', 'Dites-nous en un peu plus.'],
			['format', 'Choisissez un format.'],
			['consent', 'Vous devez accepter les conditions.']
		]) {
			expect(body).toMatch(new RegExp(`<p class="error[^"]*" id="field-${name}-error">${text}</p>`));
			expect(tag(body, `id="field-${name}"`)).toMatch(/aria-invalid="true"/);
			expect(tag(body, `id="field-${name}"`)).toMatch(
				new RegExp(`aria-describedby="[^"]*field-${name}-error`)
			);
		}
		expect(tag(body, 'id="field-email"')).toMatch(/aria-describedby="field-email-hint field-email-error"/);
		expect(tag(body, 'id="field-consent"')).not.toMatch(/checked/);
	});

	it('refuse a field outside a <Form>, or a name the form does not have', async () => {
		const { default: Lone } = await import('./test/Lone.svelte');
		expect(() => renderAsPage(Lone, { inside: false })).toThrow('inside <Form>');
		expect(() => renderAsPage(Lone, { inside: true })).toThrow('no field named "nope"');
	});
});

describe('a schema’s expression as a pattern attribute', () => {
	it('is kept when a browser can compile it (the v flag), dropped otherwise: zod’s e-mail expression is not', () => {
		const email = zod4(stepYouSchema).constraints?.email as { pattern?: string } | undefined;
		expect(email?.pattern).toBeTruthy();
		expect(() => new RegExp(email!.pattern!, 'v')).toThrow();
		expect(browserPattern(email!.pattern)).toBeUndefined();
		expect(browserPattern('[0-9]{5}')).toBe('[0-9]{5}');
		expect(browserPattern(undefined)).toBeUndefined();
		expect(controlAttributes('email', 'f-email', undefined, undefined, email as never)).not.toHaveProperty(
			'pattern',
			email!.pattern
		);
	});
});
