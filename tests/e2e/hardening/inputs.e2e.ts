/** Text that PostgreSQL would refuse is refused first, with the field named (issue "Hardening", point 8). */
import { expect, test } from '../support/fixtures';

const contact = {
	name: 'Claire Dupont',
	email: 'claire.nul@exemple.fr',
	message: 'Bonjour, je voudrais un site pour mon entreprise.'
};
const devis = {
	...contact,
	phone: '06 12 34 56 78',
	city: 'Lyon',
	projectType: 'mur'
};

for (const [route, body, field] of [
	['/api/contact', contact, 'message'],
	['/api/contact', contact, 'name'],
	['/api/devis', devis, 'city'],
	['/api/devis', devis, 'email']
] as const) {
	test(`${route}: a NUL byte in ${field} is a 400 naming it`, async ({ request }) => {
		const response = await request.post(route, {
			data: { ...body, [field]: `${(body as Record<string, string>)[field]}\u0000x` }
		});
		expect(response.status()).toBe(400);
		const problem = await response.json();
		expect(Object.keys(problem.errors)).toContain(field);
	});
}

for (const [path, form] of [
	['/login', { email: 'a\u0000@exemple.fr', password: 'un mot de passe' }],
	['/register', { name: 'Nul\u0000', email: 'nul@exemple.fr', password: 'une phrase de passe' }]
] as const) {
	test(`${path}: a NUL byte in the form is a French field error, not a 500`, async ({ request }) => {
		const base = process.env.E2E_BASE_URL!;
		const response = await request.post(path, {
			form: form as Record<string, string>,
			headers: { origin: base, accept: 'text/html' },
			maxRedirects: 0
		});
		expect(response.status()).toBe(400);
		expect(await response.text()).toMatch(/caractère invisible non autorisé|Adresse e-mail invalide/);
	});
}

// SvelteKit throws a plain Error for the action name it reserves, asked for by name: a 500 with a stack, before.
for (const path of ['/login?/default', '/register?/default', '/contact?/default', '/login?x=1&/default']) {
	test(`POST ${path}: the reserved action name is a 400, not a 500`, async ({ request }) => {
		const base = process.env.E2E_BASE_URL!;
		const response = await request.post(path, {
			form: { email: 'a@exemple.fr', password: 'un mot de passe' },
			headers: { origin: base, accept: 'text/html' },
			maxRedirects: 0
		});
		expect(response.status()).toBe(400);
		expect(await response.text()).toContain('Action de formulaire inconnue');
	});
}
