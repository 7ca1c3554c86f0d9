/**
 * The site's words (issue « Content, part 1 »): the content API called as SvelteKit would (every answer: 200, 201,
 * 204, 400 naming the field, 401, 403, 404, 409 with what is saved now, 413, 415), revision 1 written once from
 * the seed, publish and restore, articles and their addresses (301, chains, no loop), the audit trail, the
 * company file reaching everything that names the company, and hostile Markdown left inert — on PGlite and on
 * PostgreSQL (`npm run test:drivers`), where the bursts below are real concurrency.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderMarkdown } from '../../src/lib/markdown';
import { ENTRIES } from '../../src/lib/content/model';
import { company } from '../../src/lib/company';
import { appDeps, useDepsForTests } from '../../src/lib/server/app';
import { FsStorage } from '../../src/lib/server/storage';
import * as content from '../../src/lib/server/content';
import { seedFields } from '../../src/content/agency/seed';
import { liveFixed } from '../../src/lib/server/content/live';
import { seedMissing } from '../../src/lib/server/content/service';
import {
	auditEvents,
	contentEntries,
	contentRedirects,
	contentRevisions,
	users
} from '../../src/lib/server/db/schema';
import { demoSender } from '../../src/lib/server/mail/sender';
import { outboxTransport } from '../../src/lib/server/mail/transport';
import { GET as list, POST as create } from '../../src/routes/api/admin/pages/+server';
import {
	DELETE as remove,
	GET as read,
	PUT as save
} from '../../src/routes/api/admin/pages/[id=entry]/+server';
import { POST as discard } from '../../src/routes/api/admin/pages/[id=entry]/discard/+server';
import { POST as publish } from '../../src/routes/api/admin/pages/[id=entry]/publish/+server';
import { POST as restore } from '../../src/routes/api/admin/pages/[id=entry]/restore/+server';
import { DELETE as unschedule } from '../../src/routes/api/admin/pages/[id=entry]/schedule/+server';
import { GET as readRevision } from '../../src/routes/api/admin/pages/[id=entry]/revisions/[n]/+server';
import { publishDue } from '../../src/lib/server/content/schedule';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

// The renderer as it is, counted: a body is rendered once per revision, never per request. The integration files
// share their worker's modules (vite.config.ts): an earlier file may have loaded the content domain with the real
// renderer, so this file starts from a cleared registry — before its imports, which then load the counted one.
vi.hoisted(() => vi.resetModules());
vi.mock('../../src/lib/markdown', async (importOriginal) => {
	const actual = await importOriginal<typeof import('../../src/lib/markdown')>();
	return { ...actual, renderMarkdown: vi.fn(actual.renderMarkdown) };
});

let database: TestDatabase;
let admin: { id: string; email: string; name: string; isAdmin: boolean };
const member = {
	id: '00000000-0000-4000-8000-000000000002',
	email: 'm@x.fr',
	name: 'Membre',
	isAdmin: false
};

beforeAll(async () => {
	database = await createTestDatabase();
	const outbox = mkdtempSync(path.join(tmpdir(), 'atelier-outbox-'));
	useDepsForTests({
		db: database.db,
		mail: { db: database.db, transport: outboxTransport(outbox), from: 'Atelier <no-reply@atelier.test>' },
		storage: new FsStorage({
			root: mkdtempSync(path.join(tmpdir(), 'atelier-content-storage-')),
			bucket: 'private',
			origin: new URL('https://atelier.test'),
			secret: 'x'.repeat(32)
		})
	});
	const [row] = await database.db
		.insert(users)
		.values({ email: 'admin@exemple.fr', name: 'Admin', passwordHash: 'x', isAdmin: true })
		.returning();
	admin = { id: row!.id, email: row!.email, name: 'Admin', isAdmin: true };
});
afterAll(async () => {
	useDepsForTests(null);
	await database.dispose();
});

type Handler = (event: unknown) => Promise<Response>;
type User = typeof admin | null;
function call(
	handler: unknown,
	method: string,
	{
		id,
		suffix = '',
		body,
		raw,
		type = 'application/json',
		user = admin
	}: { id?: string; suffix?: string; body?: unknown; raw?: string; type?: string; user?: User } = {}
) {
	const url = `http://localhost/api/admin/pages${id ? `/${id}` : ''}${suffix}`;
	const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
	const request = new Request(url, {
		method,
		...(payload !== undefined ? { body: payload, headers: { 'content-type': type } } : {})
	});
	const event = {
		request,
		url: new URL(url),
		params: { id },
		route: { id: `/api/admin/pages${id ? '/[id=entry]' : ''}${suffix}` },
		locals: { user, session: null },
		getClientAddress: () => '10.40.0.1'
	};
	return (handler as Handler)(event);
}
const json = async (response: Response) => ({ status: response.status, body: await response.json() });
/** The addresses of the feed's items, in its order. */
const feedPaths = async () =>
	[...(await content.feed()).xml.matchAll(/<item><title>[^<]*<\/title><link>([^<]+)<\/link>/g)].map(
		(m) => new URL(m[1]!).pathname
	);

describe(`the site's words on ${driverName}`, () => {
	it('writes revision 1 of every page and of the company file once, however many instances start at once', async () => {
		// Eight instances starting at the same moment, each finding nothing: each entry and its revision 1, once.
		const created = await Promise.all(
			Array.from({ length: 8 }, () => seedMissing(database.db, seedFields, new Set()))
		);
		expect(created.reduce((a, b) => a + b, 0)).toBe(Object.keys(ENTRIES).length);
		await liveFixed(database.db);
		const entries = await database.db.select().from(contentEntries);
		expect(entries.map((e) => e.id).sort()).toEqual(Object.keys(ENTRIES).sort());
		const revisions = await database.db.select().from(contentRevisions);
		expect(revisions).toHaveLength(Object.keys(ENTRIES).length);
		expect(revisions.every((r) => r.n === 1)).toBe(true);
	});

	it('lists every entry and answers one with its live fields, no draft, its revisions and a preview address', async () => {
		const { status, body } = await json(await call(list, 'GET'));
		expect(status).toBe(200);
		expect(body.entries).toContainEqual(
			expect.objectContaining({ id: 'home', path: '/', kind: 'page', version: 1, hasDraft: false })
		);
		expect(body.entries).toContainEqual(
			expect.objectContaining({ id: 'company', path: null, kind: 'company' })
		);
		const home = await json(await call(read, 'GET', { id: 'home' }));
		expect(home.status).toBe(200);
		expect(home.body).toMatchObject({
			id: 'home',
			path: '/',
			version: 1,
			draft: null,
			previewUrl: '/?apercu=1',
			revisions: [expect.objectContaining({ n: 1, publishedBy: null })]
		});
		expect(home.body.live.heroTitle).toBe('Des sites qui font sonner le téléphone des artisans');
	});

	it('refuses whoever is not an admin (401, 403), an unknown entry (404), a body that is not JSON (415)', async () => {
		expect((await call(list, 'GET', { user: null })).status).toBe(401);
		expect((await call(list, 'GET', { user: member })).status).toBe(403);
		expect(
			(await call(save, 'PUT', { id: 'home', user: member, body: { version: 1, draft: {} } })).status
		).toBe(403);
		expect((await call(publish, 'POST', { id: 'home', user: null, body: { version: 1 } })).status).toBe(401);
		expect((await call(read, 'GET', { id: 'nulle-part' })).status).toBe(404);
		expect((await call(save, 'PUT', { id: 'nulle-part', body: { version: 1, draft: {} } })).status).toBe(404);
		const notJson = await call(save, 'PUT', { id: 'home', raw: 'version=1', type: 'text/plain' });
		expect(notJson.status).toBe(415);
		const broken = await json(
			await call(save, 'PUT', { id: 'home', raw: '{"version":', type: 'application/json' })
		);
		expect(broken.status).toBe(400);
	});

	it('refuses a draft nested past a sane depth (400, nothing saved), and a hostile text, its field named', async () => {
		await content.warmUp();
		const before = (await json(await call(read, 'GET', { id: 'contact' }))).body;
		for (const depth of [40, 100_000]) {
			const deep = `{"version":${before.version},"draft":{"title":"Contact","faq":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
			const refused = await json(await call(save, 'PUT', { id: 'contact', raw: deep }));
			expect(refused.status, String(depth)).toBe(400);
			expect(refused.body.errors._[0]).toMatch(/imbriqué trop profondément \(32 niveaux au plus\)/);
		}
		// Brackets inside a string are text, not depth.
		const bracketed = await json(
			await call(save, 'PUT', {
				id: 'contact',
				body: { version: before.version, draft: { ...before.live, title: '['.repeat(60) + ' Contact' } }
			})
		);
		expect(bracketed.status, JSON.stringify(bracketed.body)).toBe(200);
		const control = await json(
			await call(save, 'PUT', {
				id: 'contact',
				body: { version: bracketed.body.version, draft: { ...before.live, title: 'Contact\u0007' } }
			})
		);
		expect(control.status).toBe(400);
		expect(control.body.errors.title).toEqual([
			'Titre : caractère invisible non autorisé (U+0007), à retirer.'
		]);
		const pasted = await json(
			await call(save, 'PUT', {
				id: 'contact',
				body: {
					version: bracketed.body.version,
					draft: { ...before.live, title: 'Maçonnerie\u000bgénérale' }
				}
			})
		);
		expect(pasted.status).toBe(200);
		expect((await json(await call(read, 'GET', { id: 'contact' }))).body.draft.title).toBe(
			'Maçonnerie générale'
		);
		await call(discard, 'POST', { id: 'contact', body: { version: pasted.body.version } });
	});

	it('saves a draft from the current version only: a stale one is 409 with what is saved now', async () => {
		const before = (await json(await call(read, 'GET', { id: 'contact' }))).body;
		const draft = { ...before.live, title: 'Un audit offert, en 30 minutes' };
		const saved = await json(
			await call(save, 'PUT', { id: 'contact', body: { version: before.version, draft } })
		);
		expect(saved).toEqual({ status: 200, body: { version: before.version + 1 } });
		// A second tab, still at the old version, types something else: refused, and told what is saved.
		const stale = await json(
			await call(save, 'PUT', {
				id: 'contact',
				body: { version: before.version, draft: { ...draft, title: 'Autre' } }
			})
		);
		expect(stale.status).toBe(409);
		expect(stale.body).toMatchObject({
			status: 409,
			version: before.version + 1,
			draft: { title: 'Un audit offert, en 30 minutes' },
			live: { title: 'Demander un audit gratuit' }
		});
		// The same tab, still at the old version, sends the very draft saved now (keys in another order, as a tab
		// that signed in again does): nothing to choose between, no conflict — the current version.
		const reordered = Object.fromEntries(Object.entries(draft).reverse());
		const same = await json(
			await call(save, 'PUT', { id: 'contact', body: { version: before.version, draft: reordered } })
		);
		expect(same).toEqual({ status: 200, body: { version: before.version + 1 } });
		// A half-written draft is saved; a draft of the wrong shape is 400 naming the field.
		const half = await json(
			await call(save, 'PUT', {
				id: 'contact',
				body: { version: before.version + 1, draft: { title: 'Au' } }
			})
		);
		expect(half.status).toBe(200);
		const wrong = await json(
			await call(save, 'PUT', { id: 'contact', body: { version: half.body.version, draft: { title: 42 } } })
		);
		expect(wrong.status).toBe(400);
		expect(wrong.body.errors).toEqual({ title: ['Titre : un texte attendu.'] });
		// Too large: past the route's limit (256 KB), and past the draft's own (200,000 characters) within it.
		const huge = await call(save, 'PUT', {
			id: 'contact',
			body: { version: half.body.version, draft: { title: 'x'.repeat(300_000) } }
		});
		expect(huge.status).toBe(413);
		const large = await call(save, 'PUT', {
			id: 'contact',
			body: { version: half.body.version, draft: { title: 'x', body: 'x'.repeat(210_000) } }
		});
		expect(large.status).toBe(413);
		expect((await call(restore, 'POST', { id: 'contact', body: { version: 1, revision: -1 } })).status).toBe(
			400
		);
		expect((await call(restore, 'POST', { id: 'contact', body: { revision: 1 } })).status).toBe(400);
		expect((await call(publish, 'POST', { id: 'contact', body: { version: '3' } })).status).toBe(400);
		const noVersion = await json(await call(save, 'PUT', { id: 'contact', body: { draft: {} } }));
		expect(noVersion.status).toBe(400);
		expect(Object.keys(noVersion.body.errors)).toEqual(['version']);
		// « Annuler les modifications »: the draft goes, the live revision stays.
		const dropped = await json(
			await call(discard, 'POST', { id: 'contact', body: { version: half.body.version } })
		);
		expect(dropped.status).toBe(200);
		const after = (await json(await call(read, 'GET', { id: 'contact' }))).body;
		expect(after.draft).toBeNull();
		expect(after.live.title).toBe('Demander un audit gratuit');
	});

	it('lets exactly one of eight simultaneous saves from the same version through; the others get 409', async () => {
		const { version, live } = (await json(await call(read, 'GET', { id: 'devis' }))).body;
		const answers = await Promise.all(
			Array.from({ length: 8 }, (_, i) =>
				call(save, 'PUT', {
					id: 'devis',
					body: { version, draft: { ...live, title: `Version ${i} du titre` } }
				})
			)
		);
		const statuses = answers.map((a) => a.status).sort();
		expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
		const after = (await json(await call(read, 'GET', { id: 'devis' }))).body;
		expect(after.version).toBe(version + 1);
		await call(discard, 'POST', { id: 'devis', body: { version: after.version } });
	});

	it('publishes only a draft that passes every rule (400 naming the field, the draft kept), then serves it', async () => {
		let entry = (await json(await call(read, 'GET', { id: 'home' }))).body;
		const nothing = await json(await call(publish, 'POST', { id: 'home', body: { version: entry.version } }));
		expect(nothing.status).toBe(400);
		const bad = { ...entry.live, title: 'Bof', faq: [{ q: 'Une question ?', a: '' }] };
		let version = (
			await json(await call(save, 'PUT', { id: 'home', body: { version: entry.version, draft: bad } }))
		).body.version;
		const refused = await json(await call(publish, 'POST', { id: 'home', body: { version } }));
		expect(refused.status).toBe(400);
		expect(refused.body.errors).toEqual({
			title: ['Titre : entre 5 et 70 caractères (3 aujourd’hui).'],
			'faq.0.a': ['Questions fréquentes › Question 1 › Réponse : à remplir.']
		});
		entry = (await json(await call(read, 'GET', { id: 'home' }))).body;
		expect(entry.draft.title).toBe('Bof');
		expect(entry.version).toBe(version);

		const good = { ...entry.live, heroTitle: 'Des chantiers trouvés en ligne' };
		version = (await json(await call(save, 'PUT', { id: 'home', body: { version, draft: good } }))).body
			.version;
		const stale = await call(publish, 'POST', { id: 'home', body: { version: version - 1 } });
		expect(stale.status).toBe(409);
		const published = await json(await call(publish, 'POST', { id: 'home', body: { version } }));
		expect(published).toEqual({ status: 200, body: { version: version + 1, revision: 2 } });
		expect((await content.page('home')).heroTitle).toBe('Des chantiers trouvés en ligne');
		entry = (await json(await call(read, 'GET', { id: 'home' }))).body;
		expect(entry.draft).toBeNull();
		expect(entry.revisions.map((r: { n: number }) => r.n)).toEqual([2, 1]);
		expect(entry.revisions[0].publishedBy).toBe(admin.email);
		// The preview reads the draft; the public page never does.
		await call(save, 'PUT', {
			id: 'home',
			body: { version: entry.version, draft: { ...good, heroTitle: 'Brouillon' } }
		});
		expect((await content.page('home', true)).heroTitle).toBe('Brouillon');
		expect((await content.page('home')).heroTitle).toBe('Des chantiers trouvés en ligne');
	});

	it('restores a revision as a new one (history kept, the draft kept); a revision that never was is 404', async () => {
		const entry = (await json(await call(read, 'GET', { id: 'home' }))).body;
		// « Restaurer » reads the revision first, to show what differs from the live one.
		const revisionAt = (n: string, user: User = admin) =>
			(readRevision as Handler)({
				request: new Request(`http://localhost/api/admin/pages/home/revisions/${n}`),
				url: new URL(`http://localhost/api/admin/pages/home/revisions/${n}`),
				params: { id: 'home', n },
				route: { id: '/api/admin/pages/[id=entry]/revisions/[n]' },
				locals: { user, session: null },
				getClientAddress: () => '10.40.0.1'
			});
		const first = await json(await revisionAt('1'));
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({
			n: 1,
			fields: { heroTitle: 'Des sites qui font sonner le téléphone des artisans' }
		});
		for (const n of ['99', '0', 'abc', '1e3', '-1']) expect((await revisionAt(n)).status, n).toBe(404);
		expect((await revisionAt('1', member)).status).toBe(403);
		const restored = await json(
			await call(restore, 'POST', { id: 'home', body: { version: entry.version, revision: 1 } })
		);
		expect(restored.status).toBe(200);
		expect(restored.body.revision).toBe(3);
		expect((await content.page('home')).heroTitle).toBe(
			'Des sites qui font sonner le téléphone des artisans'
		);
		const after = (await json(await call(read, 'GET', { id: 'home' }))).body;
		expect(after.revisions.map((r: { n: number }) => r.n)).toEqual([3, 2, 1]);
		expect(after.draft.heroTitle).toBe('Brouillon');
		expect(after.version).toBeGreaterThan(entry.version);
		expect(
			(await call(restore, 'POST', { id: 'home', body: { version: after.version, revision: 99 } })).status
		).toBe(404);
		// The version it was asked with is spent: the same request again is stale, and says what the page now is.
		const again = await json(
			await call(restore, 'POST', { id: 'home', body: { version: entry.version, revision: 1 } })
		);
		expect(again.status).toBe(409);
		expect(again.body.version).toBe(after.version);
		const audit = await database.db.select().from(auditEvents).where(eq(auditEvents.subjectId, 'home'));
		expect(audit.map((a) => a.kind).sort()).toEqual(['content.published', 'content.restored']);
		// Who, which page, which revision — never the text.
		expect(JSON.stringify(audit)).not.toContain('Des chantiers');
		expect(audit.find((a) => a.kind === 'content.restored')!.changes).toEqual({
			revision: { before: 1, after: 3 }
		});
	});

	it('eight restores at once with one version make one revision; the seven others are told the page moved on', async () => {
		const entry = (await json(await call(read, 'GET', { id: 'contact' }))).body;
		const before = entry.revisions.length;
		const answers = await Promise.all(
			Array.from({ length: 8 }, () =>
				call(restore, 'POST', { id: 'contact', body: { version: entry.version, revision: 1 } })
			)
		);
		expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
		const after = (await json(await call(read, 'GET', { id: 'contact' }))).body;
		expect(after.revisions.length).toBe(before + 1);
	});

	it('takes an article from draft to the blog, moves its address with a 301 (chains collapse, no loop), deletes it', async () => {
		const article = {
			kind: 'article',
			slug: 'premier-article',
			title: 'Photographier ses chantiers',
			description:
				'Cinq conseils pour des photos de chantier qui donnent envie de vous appeler, prises au téléphone.',
			body: 'Un **bon** cadrage.'
		};
		const created = await json(await call(create, 'POST', { body: article }));
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ kind: 'article', path: '/blog/premier-article', live: null });
		expect(created.body.previewUrl).toBe('/blog/premier-article?apercu=1');
		const id = created.body.id as string;
		expect((await call(create, 'POST', { body: article })).status).toBe(409);
		const badSlug = await json(await call(create, 'POST', { body: { ...article, slug: 'Avec Espaces' } }));
		expect(badSlug.status).toBe(400);
		expect(Object.keys(badSlug.body.errors)).toEqual(['slug']);
		expect((await call(create, 'POST', { body: { ...article, kind: 'page' } })).status).toBe(400);

		// A draft is nowhere public.
		expect(await content.article('premier-article', false)).toBeNull();
		expect((await content.blogPage(1))!.total).toBe(0);
		expect(await content.article('premier-article', true)).toMatchObject({ preview: true });

		let version = created.body.version as number;
		const published = await json(await call(publish, 'POST', { id, body: { version } }));
		expect(published.status).toBe(200);
		version = published.body.version;
		expect(await content.article('premier-article', false)).toMatchObject({
			article: { title: 'Photographier ses chantiers', path: '/blog/premier-article' }
		});
		expect((await content.blogPage(1))!.articles.map((a) => a.path)).toEqual(['/blog/premier-article']);
		expect(await feedPaths()).toEqual(['/blog/premier-article']);
		expect((await content.sitemapArticles()).map((a) => a.path)).toEqual(['/blog/premier-article']);

		const move = async (slug: string) => {
			const entry = (await json(await call(read, 'GET', { id }))).body;
			const saved = await json(
				await call(save, 'PUT', { id, body: { version: entry.version, draft: { ...entry.live, slug } } })
			);
			return json(await call(publish, 'POST', { id, body: { version: saved.body.version } }));
		};
		expect((await move('deuxieme-adresse')).status).toBe(200);
		expect(await content.article('premier-article', false)).toEqual({ redirect: '/blog/deuxieme-adresse' });
		expect((await move('troisieme-adresse')).status).toBe(200);
		// A → B then B → C: A → C, in one hop.
		expect(await content.article('premier-article', false)).toEqual({ redirect: '/blog/troisieme-adresse' });
		expect(await content.article('deuxieme-adresse', false)).toEqual({ redirect: '/blog/troisieme-adresse' });
		// Back to the first address: it serves the article again, and nothing redirects in a loop.
		expect((await move('premier-article')).status).toBe(200);
		expect(await content.article('premier-article', false)).toMatchObject({
			article: { path: '/blog/premier-article' }
		});
		const redirects = await database.db.select().from(contentRedirects);
		expect(redirects.map((r) => [r.fromPath, r.toPath]).sort()).toEqual([
			['/blog/deuxieme-adresse', '/blog/premier-article'],
			['/blog/troisieme-adresse', '/blog/premier-article']
		]);
		expect((await content.sitemapArticles()).map((a) => a.path)).toEqual(['/blog/premier-article']);

		// Another article cannot take a published address.
		const other = await json(await call(create, 'POST', { body: { ...article, slug: 'autre' } }));
		const taken = await json(
			await call(save, 'PUT', {
				id: other.body.id,
				body: { version: other.body.version, draft: { ...other.body.draft, slug: 'premier-article' } }
			})
		);
		const refused = await json(
			await call(publish, 'POST', { id: other.body.id, body: { version: taken.body.version } })
		);
		expect(refused.status).toBe(400);
		expect(Object.keys(refused.body.errors)).toEqual(['slug']);
		expect((await call(remove, 'DELETE', { id: other.body.id })).status).toBe(204);

		// Pages cannot be deleted; an article can, and its address then leads to the blog.
		expect((await call(remove, 'DELETE', { id: 'home' })).status).toBe(409);
		expect((await call(remove, 'DELETE', { id })).status).toBe(204);
		expect((await call(remove, 'DELETE', { id })).status).toBe(404);
		expect(await content.article('premier-article', false)).toEqual({ redirect: '/blog' });
		expect(await content.article('deuxieme-adresse', false)).toEqual({ redirect: '/blog' });
		expect(await feedPaths()).toEqual([]);
		expect(await content.sitemapArticles()).toEqual([]);
		const kinds = (await database.db.select().from(auditEvents).where(eq(auditEvents.subjectId, id))).map(
			(a) => a.kind
		);
		expect(kinds.sort()).toEqual([
			'article.created',
			'article.deleted',
			'content.published',
			'content.published',
			'content.published',
			'content.published'
		]);
	});

	it('renders an article once per revision: never for the list, once for every view and the feed, again when it changes', async () => {
		const created = await json(
			await call(create, 'POST', {
				body: {
					kind: 'article',
					slug: 'rendu-une-fois',
					title: 'Un article rendu une fois',
					description:
						'Ce que coûte un article long : rien de plus à la centième lecture qu’à la première, même en liste.',
					body: '## Un intertitre\n\nUn paragraphe.'
				}
			})
		);
		const id = created.body.id as string;
		let version = (await json(await call(publish, 'POST', { id, body: { version: created.body.version } })))
			.body.version as number;
		const rendered = vi.mocked(renderMarkdown);
		rendered.mockClear();
		expect((await content.blogPage(1))!.articles.map((a) => a.path)).toContain('/blog/rendu-une-fois');
		expect(rendered).not.toHaveBeenCalled();
		for (let view = 0; view < 3; view++)
			expect(await content.article('rendu-une-fois', false)).toMatchObject({
				article: { html: '<h2 id="un-intertitre">Un intertitre</h2>\n<p>Un paragraphe.</p>\n' }
			});
		await content.feed();
		expect(rendered.mock.calls.map(([body]) => body)).toEqual(['## Un intertitre\n\nUn paragraphe.']);

		const entry = (await json(await call(read, 'GET', { id }))).body;
		const saved = await json(
			await call(save, 'PUT', {
				id,
				body: { version: entry.version, draft: { ...entry.live, body: 'Autre.' } }
			})
		);
		version = (await json(await call(publish, 'POST', { id, body: { version: saved.body.version } }))).body
			.version;
		expect(version).toBeGreaterThan(saved.body.version);
		expect(await content.article('rendu-une-fois', false)).toMatchObject({
			article: { html: '<p>Autre.</p>\n' }
		});
		expect(rendered.mock.calls.at(-1)).toEqual(['Autre.']);
		await call(remove, 'DELETE', { id });
	});

	it('gives feed readers the whole article: its body with absolute links, its cover, a guid that survives a rename, valid XML whatever a title holds', async () => {
		const photo = '0f0e0d0c-0b0a-4909-8807-060504030201.webp';
		const { storage } = appDeps();
		await storage.put(photo, Buffer.alloc(4321, 1), { contentType: 'image/webp', cacheControl: '' });
		const created = await json(
			await call(create, 'POST', {
				body: {
					kind: 'article',
					slug: 'pour-les-lecteurs',
					title: 'Un article pour les lecteurs de flux',
					description:
						'Ce qu’un lecteur de flux montre : le texte entier, sa photo, et jamais deux fois le même.',
					body: '## Plan\n\n[Contact](/contact), [plus bas](#plan), ![x](/cours/media/a.webp) et [ailleurs](https://exemple.fr).',
					cover: { value: `storage:${photo}`, alt: 'Un mur de pierre sèche' }
				}
			})
		);
		const id = created.body.id as string;
		await call(publish, 'POST', { id, body: { version: created.body.version } });
		// A revision published before titles were held to the text rule: a vertical tab and a NUL-free control.
		await database.db.execute(
			sql`update content_revisions set fields = jsonb_set(fields, '{title}', to_jsonb(${'Numérique\u000bSAS\u0001 & « fils »'}::text)) where entry_id = ${id}`
		);
		await liveFixed(database.db); // a purge: the revision is read again
		const first = await content.feed();
		expect(XMLValidator.validate(first.xml)).toBe(true);
		const channel = new XMLParser({ ignoreAttributes: false }).parse(first.xml).rss.channel;
		expect(channel.title).toBe('Le blog d’Atelier');
		const item = [channel.item]
			.flat()
			.find((i: { link: string }) => i.link.endsWith('/blog/pour-les-lecteurs'));
		expect(item.title).toBe('Numérique SAS &amp; « fils »'.replace('&amp;', '&'));
		expect(item.guid).toEqual({ '#text': `atelier-article-${id}`, '@_isPermaLink': 'false' });
		const origin = new URL(item.link).origin;
		expect(item['content:encoded']).toContain(`<a href="${origin}/contact">Contact</a>`);
		expect(item['content:encoded']).toContain(`href="${origin}/blog/pour-les-lecteurs#plan"`);
		expect(item['content:encoded']).toContain('href="https://exemple.fr"');
		expect(item.enclosure).toMatchObject({ '@_length': '4321', '@_type': 'image/webp' });
		expect(item.enclosure['@_url']).toMatch(new RegExp(`^${origin}/blog/pour-les-lecteurs/couverture\\?v=`));
		expect(first.etag).toMatch(/^"[\w-]+"$/);
		expect((await content.feed()).etag).toBe(first.etag);

		// Renamed: the same guid, so that a reader does not show it again as new.
		const entry = (await json(await call(read, 'GET', { id }))).body;
		const saved = await json(
			await call(save, 'PUT', {
				id,
				body: {
					version: entry.version,
					draft: {
						...entry.draft,
						...entry.live,
						title: 'Un article pour les lecteurs de flux',
						slug: 'pour-les-lecteurs-2'
					}
				}
			})
		);
		await call(publish, 'POST', { id, body: { version: saved.body.version } });
		const renamed = await content.feed();
		expect(renamed.etag).not.toBe(first.etag);
		expect(renamed.xml).toContain(`<guid isPermaLink="false">atelier-article-${id}</guid>`);
		expect(renamed.xml).toContain('/blog/pour-les-lecteurs-2</link>');
		await call(remove, 'DELETE', { id });
	});

	it('schedules a publish: 202, published by itself once at its time however many instances look, cancelled, refused when it could not go live', async () => {
		const id = 'candidature';
		const entry = (await json(await call(read, 'GET', { id }))).body;
		const saved = await json(
			await call(save, 'PUT', {
				id,
				body: { version: entry.version, draft: { ...entry.live, title: 'Candidater, à Noël' } }
			})
		);
		const soon = new Date(Date.now() + 3_600_000);
		const at = soon.toISOString().replace('Z', '+00:00');
		// Refused: a time gone, one too far, a stale version, a body that is not a time.
		for (const [body, status] of [
			[{ version: saved.body.version, at: new Date(Date.now() - 1000).toISOString() }, 400],
			[{ version: saved.body.version, at: new Date(Date.now() + 400 * 86_400_000).toISOString() }, 400],
			[{ version: saved.body.version, at: 'demain à 9 h' }, 400],
			[{ version: entry.version, at }, 409]
		] as const) {
			const refused = await json(await call(publish, 'POST', { id, body }));
			expect(refused.status, JSON.stringify(body)).toBe(status);
			if (status === 400) expect(Object.keys(refused.body.errors)).toEqual(['at']);
		}
		const scheduled = await json(
			await call(publish, 'POST', { id, body: { version: saved.body.version, at } })
		);
		expect(scheduled).toEqual({
			status: 202,
			body: { version: saved.body.version + 1, scheduledAt: soon.toISOString() }
		});
		expect((await json(await call(read, 'GET', { id }))).body.scheduledAt).toEqual(soon.toISOString());
		expect((await content.scheduled()).map((e) => [e.id, e.at?.toISOString(), e.by])).toEqual([
			[id, soon.toISOString(), admin.email]
		]);
		const deps = { db: database.db, purge: async () => {} };
		const revisionsOf = async () => (await json(await call(read, 'GET', { id }))).body.revisions.length;
		const before = await revisionsOf();
		expect(await publishDue(deps, new Date(soon.getTime() - 1000))).toEqual({ published: [], failed: [] });
		// Eight instances look at the same minute: one publish.
		const runs = await Promise.all(
			Array.from({ length: 8 }, () => publishDue(deps, new Date(soon.getTime() + 5000)))
		);
		expect(runs.flatMap((run) => run.published)).toEqual([id]);
		expect(await revisionsOf()).toBe(before + 1);
		const after = (await json(await call(read, 'GET', { id }))).body;
		expect(after.live.title).toBe('Candidater, à Noël');
		expect(after.scheduledAt).toBeNull();
		expect(after.draft).toBeNull();
		const trail = await database.db.select().from(auditEvents).where(eq(auditEvents.subjectId, id));
		expect(trail.map((a) => a.kind)).toEqual(
			expect.arrayContaining(['content.publish_scheduled', 'content.published'])
		);

		// Cancelled: 204, then nothing to cancel (404); the draft stays a draft.
		const again = await json(
			await call(save, 'PUT', {
				id,
				body: { version: after.version, draft: { ...after.live, title: 'Candidater en janvier' } }
			})
		);
		const second = await json(await call(publish, 'POST', { id, body: { version: again.body.version, at } }));
		expect(second.status).toBe(202);
		expect((await call(unschedule, 'DELETE', { id, suffix: '/schedule' })).status).toBe(204);
		expect((await call(unschedule, 'DELETE', { id, suffix: '/schedule' })).status).toBe(404);
		expect((await call(unschedule, 'DELETE', { id, suffix: '/schedule', user: member })).status).toBe(403);
		expect(await publishDue(deps, new Date(soon.getTime() + 5000))).toEqual({ published: [], failed: [] });

		// A draft that no longer passes the checks at its time is not published: dropped, and said.
		const third = await json(await call(publish, 'POST', { id, body: { version: second.body.version, at } }));
		expect(third.status).toBe(202);
		const broken = await json(
			await call(save, 'PUT', {
				id,
				body: { version: third.body.version, draft: { ...after.live, title: 'Bo' } }
			})
		);
		expect(broken.status).toBe(200);
		const revisions = await revisionsOf();
		expect(await publishDue(deps, new Date(soon.getTime() + 5000))).toEqual({ published: [], failed: [id] });
		expect(await revisionsOf()).toBe(revisions);
		expect((await json(await call(read, 'GET', { id }))).body).toMatchObject({
			scheduledAt: null,
			draft: { title: 'Bo' }
		});
		const failures = await database.db
			.select()
			.from(auditEvents)
			.where(eq(auditEvents.kind, 'content.scheduled_publish_failed'));
		expect(failures.map((f) => f.subjectId)).toEqual([id]);
		// Not publishable now: not scheduled either.
		const current = (await json(await call(read, 'GET', { id }))).body;
		const unfit = await json(await call(publish, 'POST', { id, body: { version: current.version, at } }));
		expect(unfit.status).toBe(400);
		expect(unfit.body.errors.title).toBeDefined();
		await call(discard, 'POST', { id, body: { version: current.version } });
	});

	it('renders hostile Markdown inert: no script, no javascript: link, no event attribute', async () => {
		const hostile = {
			kind: 'article',
			slug: 'piege',
			title: 'Un titre <script>alert(1)</script>',
			description:
				'Une description <img src=x onerror=alert(1)> assez longue pour passer la règle des cinquante.',
			body: [
				'<script>alert(1)</script>',
				'[cliquez](javascript:alert(1))',
				'<img src=x onerror="alert(1)">',
				'[data](data:text/html;base64,PHNjcmlwdD4=)',
				'<a href="javascript:alert(1)">lien</a>'
			].join('\n\n')
		};
		const created = await json(await call(create, 'POST', { body: hostile }));
		const published = await call(publish, 'POST', {
			id: created.body.id,
			body: { version: created.body.version }
		});
		expect(published.status).toBe(200);
		for (const preview of [false, true]) {
			const answer = await content.article('piege', preview);
			const html = answer && 'article' in answer ? answer.article.html : '';
			expect(html).not.toMatch(/<script|<img|<a href="javascript:|href="data:/i);
			expect(html).toContain('&lt;script&gt;');
			expect(html).not.toMatch(/<[^>]+\sonerror=/i);
		}
		await call(remove, 'DELETE', { id: created.body.id });
	});

	it('signs the maçon demo’s quote e-mails with the demo’s name and number as its page now says them', async () => {
		const entry = (await json(await call(read, 'GET', { id: 'macon' }))).body;
		const draft = { ...entry.live, name: 'Maçonnerie Girard Frères', phone: '04 74 99 99 99' };
		const saved = await json(
			await call(save, 'PUT', { id: 'macon', body: { version: entry.version, draft } })
		);
		expect((await call(publish, 'POST', { id: 'macon', body: { version: saved.body.version } })).status).toBe(
			200
		);
		const demo = await content.demo('macon');
		expect(demo).toMatchObject({ name: 'Maçonnerie Girard Frères', phone: '04 74 99 99 99', path: '/macon' });
		expect(demoSender(demo).footer).toContain('Maçonnerie Girard Frères est une entreprise fictive');
	});

	it('publishes the company file: every page, e-mail and document names the company as it now is', async () => {
		const entry = (await json(await call(read, 'GET', { id: 'company' }))).body;
		expect(entry.previewUrl).toBeNull();
		expect(entry.live).not.toHaveProperty('phoneHref');
		// A number nobody can call is refused at publish, named; the draft is kept.
		const unreadable = await json(
			await call(save, 'PUT', {
				id: 'company',
				body: { version: entry.version, draft: { ...entry.live, phone: '04 78 00 00' } }
			})
		);
		const refused = await json(
			await call(publish, 'POST', { id: 'company', body: { version: unreadable.body.version } })
		);
		expect(refused.status).toBe(400);
		expect(refused.body.errors.phone).toEqual([
			'Téléphone : un numéro qui peut être appelé (« 04 78 00 00 00 » ou « +33 4 78 00 00 00 »).'
		]);
		const draft = {
			...entry.live,
			brand: 'Atelier Nord',
			address: { ...entry.live.address, city: 'Lille' },
			phone: '03 20 00 12 34',
			// What an older editor sent: the second number is no field any more, and is not kept.
			phoneHref: '+33478000000'
		};
		const saved = await json(
			await call(save, 'PUT', { id: 'company', body: { version: unreadable.body.version, draft } })
		);
		expect(saved.status).toBe(200);
		const published = await json(
			await call(publish, 'POST', { id: 'company', body: { version: saved.body.version } })
		);
		expect(published.status).toBe(200);
		await liveFixed(database.db);
		await expect.poll(() => company.brand).toBe('Atelier Nord');
		expect(company.address.city).toBe('Lille');
		// One number: the tel: links, the JSON-LD and the e-mails call the new line.
		expect(company.phone).toBe('03 20 00 12 34');
		expect(company.phoneHref).toBe('+33320001234');
		expect((await content.page('home')).title).toBe(
			'Atelier Nord — sites web et formation pour les artisans'
		);
		expect((await content.legalPage('mentions-legales')).html).toContain('69002 Lille, France');
		// Back as it was, for whatever runs after in this process.
		const now = (await json(await call(read, 'GET', { id: 'company' }))).body;
		const back = await json(
			await call(restore, 'POST', { id: 'company', body: { version: now.version, revision: 1 } })
		);
		expect(back.status).toBe(200);
		await liveFixed(database.db);
		await expect.poll(() => company.brand).toBe('Atelier');
		expect(company.phoneHref).toBe('+33478000000');
	});
});
