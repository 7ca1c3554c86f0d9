/** Text that PostgreSQL would refuse is refused first, with the field named (issue "Hardening", point 8). */
import { startIsolatedServer } from '../support/server';
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

test('with ADDRESS_HEADER set, a request without that header is a 400 and one warn naming the setting — not a 500 on every form', async () => {
	const server = await startIsolatedServer({ ADDRESS_HEADER: 'x-real-ip' });
	try {
		const send = (headers: Record<string, string>) =>
			fetch(`${server.url}/api/contact`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: JSON.stringify(contact)
			});
		// A health check comes straight, without the proxy's header: it never needed the address.
		expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
		for (let i = 0; i < 3; i++) {
			const missing = await send({});
			expect(missing.status).toBe(400);
			expect((await missing.json()).detail).toContain('adresse du visiteur manque');
		}
		const form = await fetch(`${server.url}/contact`, {
			method: 'POST',
			headers: {
				origin: server.url,
				accept: 'text/html',
				'content-type': 'application/x-www-form-urlencoded'
			},
			body: new URLSearchParams(contact)
		});
		expect(form.status).toBe(400);
		expect((await send({ 'x-real-ip': '203.0.113.9' })).status).toBe(201);
		const warnings = server
			.output()
			.split('\n')
			.filter((line) => line.includes('"level":"warn"') && line.includes('ADDRESS_HEADER'));
		expect(warnings).toHaveLength(1);
		expect(server.output()).not.toContain('"level":"error"');
	} finally {
		expect(await server.stop()).toBe(0);
	}
});

test('malformed bodies on every public form and API are client mistakes: never a 5xx, nothing at error in the log', async () => {
	const server = await startIsolatedServer();
	try {
		const origin = { origin: server.url };
		const cases: [string, Record<string, string>, string | Uint8Array<ArrayBuffer>][] = [
			['/api/contact', { 'content-type': 'application/json' }, '{"name": "Claire", '],
			['/api/contact', { 'content-type': 'application/json' }, '[]'],
			['/api/devis', { 'content-type': 'application/json' }, '"une chaîne"'],
			['/api/devis', { 'content-type': 'application/json' }, new Uint8Array([0xff, 0xfe, 0x00, 0x7b])],
			['/api/admin/setup', { 'content-type': 'application/json' }, 'null'],
			['/register', { 'content-type': 'multipart/form-data; boundary=x' }, 'pas un multipart'],
			['/register', { 'content-type': 'multipart/form-data' }, '--x\r\n'],
			['/login', { 'content-type': 'application/x-www-form-urlencoded' }, '%zz=%%&email=%E0%A4%A'],
			['/login', { 'content-type': 'application/json' }, '{"email":"a"}'],
			['/contact', { 'content-type': 'text/plain' }, 'bonjour'],
			['/devis', { 'content-type': 'application/x-www-form-urlencoded' }, 'email=\u0000'],
			['/mot-de-passe-oublie', { 'content-type': 'application/x-www-form-urlencoded' }, 'email=%00'],
			['/candidature', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=b&a=c']
		];
		for (const [route, headers, body] of cases) {
			const response = await fetch(`${server.url}${route}`, {
				method: 'POST',
				headers: { ...origin, accept: 'text/html', ...headers },
				body,
				redirect: 'manual'
			});
			await response.arrayBuffer();
			expect(response.status, `${route} ${headers['content-type']}`).toBeLessThan(500);
		}
		const errors = server
			.output()
			.split('\n')
			.filter((line) => line.includes('"level":"error"'));
		expect(errors).toEqual([]);
	} finally {
		await server.stop();
	}
});
