/**
 * A write sent by another site's page is refused on every route that takes one, whatever its body's type (issue
 * « Every door holds, part 2 », point 5): SvelteKit refuses a form's body from another origin, and the hooks
 * (http/same-origin.ts) refuse the rest — the admin's JSON API first. The routes are read from src/routes, so a
 * route added tomorrow is tried too. The admin's own cookie goes with each request: only the origin is wrong.
 */
import { globSync, readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminApiOn } from '../support/accounts';
import { startIsolatedServer, type RunningServer } from '../support/server';

let server: RunningServer;
let admin: APIRequestContext;

test.beforeAll(async () => {
	server = await startIsolatedServer();
	admin = await adminApiOn(server.url);
});
test.afterAll(async () => {
	await admin?.dispose();
	await server?.stop();
});

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A route's path with a plausible value in each parameter (an unknown id is fine: the origin is judged first). */
function pathOf(file: string): string {
	return (
		file
			.replace(/^src\/routes/, '')
			.replace(/\/\+(server|page\.server)\.ts$/, '')
			.replace(/\/\([^)]+\)/g, '')
			.replace(/\/\[\[[^\]]+\]\]/g, '')
			.replace(/\[[^\]]*=uuid\]/g, '4f1c2b8e-3d5a-4c6e-9f70-1a2b3c4d5e6f')
			.replace(/\[id=entry\]/g, 'home')
			.replace(/\[[^\]]+\]/g, 'x') || '/'
	);
}

/** Every route that takes a write: its path and methods (endpoints), or its form actions (pages). */
function writeRoutes(): { path: string; methods: string[] }[] {
	const routes: { path: string; methods: string[] }[] = [];
	for (const file of globSync('src/routes/**/+server.ts')) {
		const source = readFileSync(file, 'utf8');
		const methods = WRITES.filter((m) =>
			new RegExp(`export (const|async function|function) ${m}\\b`).test(source)
		);
		if (methods.length) routes.push({ path: pathOf(file), methods });
	}
	for (const file of globSync('src/routes/**/+page.server.ts'))
		if (/export const actions\b/.test(readFileSync(file, 'utf8')))
			routes.push({ path: pathOf(file), methods: ['POST'] });
	return routes;
}

test('no route takes a write from another site’s page, JSON or form, with the admin’s own cookie', async () => {
	const routes = writeRoutes();
	// The admin's content, course and candidature APIs, the public forms, the members' endpoints, the actions.
	expect(routes.length).toBeGreaterThan(30);
	for (const { path, methods } of routes)
		for (const method of methods) {
			// Answered by the server's entry before SvelteKit (src/server/own-paths.ts), and needing no session: Stripe's
			// webhook is signed (no page can sign), and a reminder's one-click unsubscribe (RFC 8058) is posted by mail
			// providers from anywhere, its token the only credential.
			if (path === '/api/payments/webhook' || path.startsWith('/rappels/')) continue;
			for (const origin of ['https://evil.example', 'null']) {
				const json = await admin.fetch(path, {
					method,
					headers: { origin, 'content-type': 'application/json' },
					data: JSON.stringify({ version: 1, revision: 1 }),
					maxRedirects: 0
				});
				expect(json.status(), `${method} ${path} (JSON, Origin ${origin})`).toBe(403);
				const form = await admin.fetch(path, {
					method,
					headers: { origin },
					form: { email: 'x@exemple.fr' },
					maxRedirects: 0
				});
				expect(form.status(), `${method} ${path} (form, Origin ${origin})`).toBe(403);
			}
		}
});

test('the control: the same content API call from the site itself reaches the route', async () => {
	const read = await admin.get('/api/admin/pages/home');
	const { version } = (await read.json()) as { version: number };
	const stale = await admin.post('/api/admin/pages/home/restore', {
		headers: { origin: server.url },
		data: { version: version + 1, revision: 1 }
	});
	expect(stale.status()).toBe(409);
	const restored = await admin.post('/api/admin/pages/home/restore', {
		headers: { origin: server.url },
		data: { version, revision: 1 }
	});
	expect(restored.status()).toBe(200);
	// A foreign origin changed nothing: the page is at the revision the control just made.
	const after = (await (await admin.get('/api/admin/pages/home')).json()) as { revisions: unknown[] };
	expect(after.revisions).toHaveLength(2);
});
