/**
 * Course modules (issue "Courses and the members' area"): the admin API called directly with a Request (CRUD,
 * validation, 401/403, 409, 404), ordering, publishing and the percentage, concurrent completions.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useDepsForTests } from '../../src/lib/server/app';
import { MAX_AGE_MS, ReaderCache } from '../../src/lib/server/courses/reader-cache';
import * as service from '../../src/lib/server/courses/service';
import { openDatabase } from '../../src/lib/server/db';
import { moduleProgress, modules, users } from '../../src/lib/server/db/schema';
import { outboxTransport } from '../../src/lib/server/mail/transport';
import { GET as list, POST as create } from '../../src/routes/api/admin/modules/+server';
import {
	DELETE as remove,
	GET as read,
	PUT as update
} from '../../src/routes/api/admin/modules/[id=uuid]/+server';
import { FsStorage } from '../../src/lib/server/storage';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
let memberId: string;
/** Each test's own: every service call below reads through it, so each write must drop what it changed. */
let readers: ReaderCache;
/** Where module files would go: none of these tests gives a module a file. */
const storage = new FsStorage({
	root: mkdtempSync(path.join(tmpdir(), 'atelier-courses-')),
	bucket: 'private-gallery',
	origin: new URL('http://localhost'),
	secret: 'x'.repeat(32)
});
/** How long another instance may take to hear a change: far less than MAX_AGE_MS, after which it would read anyway. */
const POLL = { timeout: 5_000, interval: 50 };
const admin = { id: '00000000-0000-4000-8000-000000000001', email: 'a@x.fr', name: 'Admin', isAdmin: true };

beforeAll(async () => {
	database = await createTestDatabase();
	const outbox = mkdtempSync(path.join(tmpdir(), 'atelier-outbox-'));
	useDepsForTests({
		db: database.db,
		mail: { db: database.db, transport: outboxTransport(outbox), from: 'Atelier <no-reply@atelier.test>' }
	});
	const [member] = await database.db
		.insert(users)
		.values({ email: 'membre@exemple.fr', name: 'Membre', passwordHash: 'x' })
		.returning();
	memberId = member!.id;
});
afterAll(async () => {
	useDepsForTests(null);
	await database.dispose();
});
beforeEach(async () => {
	await database.db.delete(moduleProgress);
	await database.db.delete(modules);
	readers = new ReaderCache();
});

type Handler = (event: unknown) => Promise<Response>;
/** Calls a handler as SvelteKit would, as `user` (null: signed out). */
function call(
	handler: unknown,
	method: string,
	{ id, body, user = admin }: { id?: string; body?: unknown; user?: typeof admin | null } = {}
) {
	const url = `http://localhost/api/admin/modules${id ? `/${id}` : ''}`;
	const request = new Request(url, {
		method,
		...(body !== undefined
			? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
			: {})
	});
	const event = {
		request,
		url: new URL(url),
		params: { id },
		route: { id: id ? '/api/admin/modules/[id=uuid]' : '/api/admin/modules' },
		locals: { user, session: null },
		getClientAddress: () => '10.40.0.1'
	};
	return (handler as Handler)(event);
}

describe(`the modules API on ${driverName}`, () => {
	it('creates (201, slug from the title, last position), reads, updates partially, lists in order, deletes (204)', async () => {
		const first = await call(create, 'POST', {
			body: { title: 'Les fondations : béton', content: '# Béton' }
		});
		expect(first.status).toBe(201);
		const a = await first.json();
		expect(a).toMatchObject({
			slug: 'les-fondations-beton',
			position: 0,
			published: false,
			durationMinutes: 0
		});
		const b = await (
			await call(create, 'POST', { body: { title: 'Murs', slug: 'murs', durationMinutes: 20 } })
		).json();
		expect(b.position).toBe(1);

		expect(await (await call(read, 'GET', { id: a.id })).json()).toMatchObject({
			id: a.id,
			content: '# Béton'
		});
		const updated = await call(update, 'PUT', { id: a.id, body: { published: true, position: 5 } });
		expect(updated.status).toBe(200);
		expect(await updated.json()).toMatchObject({
			published: true,
			title: 'Les fondations : béton',
			position: 5
		});
		const { modules: listed } = await (await call(list, 'GET')).json();
		expect(listed.map((m: { slug: string }) => m.slug)).toEqual(['murs', 'les-fondations-beton']);

		await database.db.insert(moduleProgress).values({ userId: memberId, moduleId: a.id });
		expect((await call(remove, 'DELETE', { id: a.id })).status).toBe(204);
		expect(await database.db.select().from(moduleProgress)).toHaveLength(0);
		expect((await call(read, 'GET', { id: a.id })).status).toBe(404);
	});

	it('400 naming fields, 409 on a taken slug, 404 for an unknown id', async () => {
		const invalid = await call(create, 'POST', {
			body: { title: '', slug: 'Pas Bon!', durationMinutes: -3, published: 'oui' }
		});
		expect(invalid.status).toBe(400);
		expect(Object.keys((await invalid.json()).errors).sort()).toEqual([
			'durationMinutes',
			'published',
			'slug',
			'title'
		]);
		await call(create, 'POST', { body: { title: 'Enduits' } });
		const taken = await call(create, 'POST', { body: { title: 'Autre', slug: 'enduits' } });
		expect(taken.status).toBe(409);
		const other = await (await call(create, 'POST', { body: { title: 'Autre' } })).json();
		expect((await call(update, 'PUT', { id: other.id, body: { slug: 'enduits' } })).status).toBe(409);
		const unknown = '00000000-0000-4000-8000-00000000ffff';
		expect((await call(update, 'PUT', { id: unknown, body: { title: 'x' } })).status).toBe(404);
		expect((await call(remove, 'DELETE', { id: unknown })).status).toBe(404);
	});

	it('401 signed out, 403 for a member', async () => {
		expect((await call(list, 'GET', { user: null })).status).toBe(401);
		expect(
			(await call(create, 'POST', { user: { ...admin, isAdmin: false }, body: { title: 'x' } })).status
		).toBe(403);
	});
});

describe(`members' progress on ${driverName}`, () => {
	async function three() {
		const db = database.db;
		const a = await service.createModule(
			db,
			readers,
			{
				title: 'Un',
				summary: '',
				content: '',
				published: true,
				durationMinutes: 10
			},
			admin
		);
		const b = await service.createModule(
			db,
			readers,
			{
				title: 'Deux',
				summary: '',
				content: '',
				published: true,
				durationMinutes: 10
			},
			admin
		);
		const c = await service.createModule(
			db,
			readers,
			{
				title: 'Trois',
				summary: '',
				content: '',
				published: true,
				durationMinutes: 10
			},
			admin
		);
		return { a, b, c };
	}

	it('reorders by moves and by a whole new order, and the order persists', async () => {
		const { a, b, c } = await three();
		await service.moveModule(database.db, readers, c.id, 'up', admin);
		expect((await service.listModules(database.db)).map((m) => m.title)).toEqual(['Un', 'Trois', 'Deux']);
		await service.reorderModules(database.db, readers, [b.id, a.id, c.id], admin);
		expect((await service.listModules(database.db)).map((m) => m.title)).toEqual(['Deux', 'Un', 'Trois']);
		await expect(service.reorderModules(database.db, readers, [b.id, a.id], admin)).rejects.toMatchObject({
			status: 409
		});
	});

	it('counts published modules only: unpublishing hides one without breaking the percentage', async () => {
		const { a, b } = await three();
		await service.completeModule(database.db, readers, { id: memberId, isAdmin: false }, a.slug);
		await service.completeModule(database.db, readers, { id: memberId, isAdmin: false }, b.slug);
		expect(await service.progressOf(database.db, readers, memberId)).toMatchObject({
			completed: 2,
			total: 3,
			percent: 67
		});
		await service.updateModule(database.db, readers, storage, b.id, { published: false }, admin);
		const after = await service.progressOf(database.db, readers, memberId);
		expect(after).toMatchObject({ completed: 1, total: 2, percent: 50 });
		expect(after.next!.title).toBe('Trois');
		await expect(
			service.modulePage(database.db, readers, b.slug, { id: memberId, isAdmin: false })
		).rejects.toMatchObject({ status: 404 });
		expect(
			(await service.modulePage(database.db, readers, b.slug, { id: memberId, isAdmin: true })).module
				.published
		).toBe(false);
		await expect(
			service.completeModule(database.db, readers, { id: memberId, isAdmin: false }, b.slug)
		).rejects.toMatchObject({
			status: 404
		});
	});

	it('simultaneous completions make one row; undo removes it', async () => {
		const { a } = await three();
		await Promise.all(
			Array.from({ length: 10 }, () =>
				service.completeModule(database.db, readers, { id: memberId, isAdmin: false }, a.slug)
			)
		);
		expect(await database.db.select().from(moduleProgress)).toHaveLength(1);
		const page = await service.modulePage(database.db, readers, a.slug, { id: memberId, isAdmin: false });
		expect(page).toMatchObject({ completed: true, previous: null });
		expect(page.next!.title).toBe('Deux');
		await service.undoModule(database.db, readers, memberId, a.slug);
		expect(await database.db.select().from(moduleProgress)).toHaveLength(0);
	});

	it('a module page names its published neighbours and gives the figures the dashboard gives', async () => {
		const { a, b, c } = await three();
		const member = { id: memberId, isAdmin: false };
		await service.completeModule(database.db, readers, { id: memberId, isAdmin: false }, c.slug);
		expect(await service.modulePage(database.db, readers, b.slug, member)).toMatchObject({
			module: { id: b.id, title: 'Deux', published: true },
			completed: false,
			previous: { slug: a.slug, title: 'Un' },
			next: { slug: c.slug, title: 'Trois' },
			// Where to go once this one is done: the first other module left, here the first of all.
			progress: { completed: 1, total: 3, percent: 33, unfinished: { slug: a.slug, title: 'Un' } }
		});
		expect(await service.modulePage(database.db, readers, c.slug, member)).toMatchObject({
			completed: true,
			previous: { slug: b.slug, title: 'Deux' },
			next: null,
			progress: { unfinished: { slug: a.slug, title: 'Un' } }
		});
		// Unpublished, the middle module drops out of the others' neighbours and of the figures; its preview (an
		// admin's) has no neighbours.
		await service.updateModule(database.db, readers, storage, b.id, { published: false }, admin);
		const first = await service.modulePage(database.db, readers, a.slug, member);
		expect(first).toMatchObject({ previous: null, next: { slug: c.slug, title: 'Trois' } });
		const { completed, total, percent } = await service.progressOf(database.db, readers, memberId);
		expect(first.progress).toEqual({ completed, total, percent, unfinished: null });
		expect(first.progress).toEqual({ completed: 1, total: 2, percent: 50, unfinished: null });
		expect(
			await service.modulePage(database.db, readers, b.slug, { id: memberId, isAdmin: true })
		).toMatchObject({
			previous: null,
			next: null,
			progress: { completed: 1, total: 2 }
		});
		// Another reader's completion is not this one's.
		expect(
			(await service.modulePage(database.db, readers, c.slug, { id: admin.id, isAdmin: true })).completed
		).toBe(false);
		await expect(service.modulePage(database.db, readers, 'pas-de-module', member)).rejects.toMatchObject({
			status: 404
		});
		// Neighbours follow the admin's order, not the order of creation.
		await service.reorderModules(database.db, readers, [c.id, b.id, a.id], admin);
		expect(await service.modulePage(database.db, readers, a.slug, member)).toMatchObject({
			previous: { slug: c.slug, title: 'Trois' },
			next: null
		});
		expect(await service.modulePage(database.db, readers, c.slug, member)).toMatchObject({
			previous: null,
			next: { slug: a.slug, title: 'Un' }
		});
	});

	it('a module page shows the version it reads: an edit is rendered at once, then served from the cache', async () => {
		const { a } = await three();
		const reader = { id: memberId, isAdmin: false };
		await service.updateModule(
			database.db,
			readers,
			storage,
			a.id,
			{ content: '## Avant\n\nLe *mortier*.' },
			admin
		);
		const first = await service.modulePage(database.db, readers, a.slug, reader);
		expect(first.html).toContain('<em>mortier</em>');
		// The same version again: the cached HTML, the very same string.
		expect((await service.modulePage(database.db, readers, a.slug, reader)).html).toBe(first.html);
		await service.updateModule(
			database.db,
			readers,
			storage,
			a.id,
			{ content: '## Après\n\nLa **chaux**.' },
			admin
		);
		const edited = await service.modulePage(database.db, readers, a.slug, reader);
		expect(edited.html).toContain('<strong>chaux</strong>');
		expect(edited.html).not.toContain('mortier');
	});

	it('a kept view answers without the database; a change made behind the domain’s back is read within MAX_AGE_MS', async () => {
		const time = { now: 1_000_000 };
		const kept = new ReaderCache(() => time.now);
		const { a } = await three();
		const member = { id: memberId, isAdmin: false };
		expect((await service.modulePage(database.db, kept, a.slug, member)).module.title).toBe('Un');
		// An operator's SQL: nothing tells the cache.
		await database.db.update(modules).set({ title: 'Un, revu' }).where(eq(modules.id, a.id));
		await database.db.insert(moduleProgress).values({ userId: memberId, moduleId: a.id });
		const kept1 = await service.modulePage(database.db, kept, a.slug, member);
		expect(kept1).toMatchObject({ module: { title: 'Un' }, completed: false });
		time.now += MAX_AGE_MS;
		expect(await service.modulePage(database.db, kept, a.slug, member)).toMatchObject({
			module: { title: 'Un, revu' },
			completed: true,
			progress: { completed: 1, total: 3 }
		});
	});

	it.skipIf(driverName !== 'postgres')(
		'a change on one instance is seen at once on another (NOTIFY), and all is read again after a lost LISTEN',
		async () => {
			const { a, b } = await three();
			const member = { id: memberId, isAdmin: false };
			// Two instances on one database: this test's (readers) and another process's (its own client and cache).
			const other = openDatabase({ url: database.url, max: 2 });
			const elsewhere = new ReaderCache();
			try {
				await readers.listen(database.pg);
				await elsewhere.listen(other.pg);
				const pageElsewhere = (slug: string) => service.modulePage(other.db, elsewhere, slug, member);
				expect((await pageElsewhere(a.slug)).completed).toBe(false);

				await service.completeModule(database.db, readers, { id: memberId, isAdmin: false }, a.slug);
				await expect.poll(async () => (await pageElsewhere(a.slug)).completed, POLL).toBe(true);
				await service.updateModule(database.db, readers, storage, b.id, { title: 'Deux, revu' }, admin);
				await expect.poll(async () => (await pageElsewhere(a.slug)).next?.title, POLL).toBe('Deux, revu');
				await service.undoModule(database.db, readers, memberId, a.slug);
				await expect.poll(async () => (await pageElsewhere(b.slug)).progress.completed, POLL).toBe(0);

				// Notifications sent while the LISTEN connection is down are lost: when it is back, nothing kept is trusted.
				await database.db.update(modules).set({ title: 'Deux, sans annonce' }).where(eq(modules.id, b.id));
				expect((await pageElsewhere(a.slug)).next?.title).toBe('Deux, revu');
				await other.pg!.unsafe(
					`select pg_terminate_backend(pid) from pg_stat_activity
					 where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`
				);
				await expect
					.poll(async () => (await pageElsewhere(a.slug)).next?.title, { timeout: 15_000, interval: 100 })
					.toBe('Deux, sans annonce');
			} finally {
				await other.close();
			}
		},
		30_000
	);

	it('a dashboard with no published module says 0 % and has no next module', async () => {
		expect(await service.progressOf(database.db, readers, memberId)).toEqual({
			modules: [],
			completed: 0,
			total: 0,
			percent: 0,
			next: null
		});
	});
});
