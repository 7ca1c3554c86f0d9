/**
 * The audit trail (issue "Trust", point 3): each admin action writes one row in its own transaction (a refused
 * action writes none), the trail cannot be edited or erased, the retention deletes rows past three years and
 * nothing newer, and the page's filters and pages find what they say.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditPage, changesOf, purgeOldAudit, recordAudit } from '../../src/lib/server/audit/service';
import { setupFirstAdmin } from '../../src/lib/server/auth/registration';
import { passwordLinkFor, recoverAdmin } from '../../src/lib/server/auth/recovery';
import { ReaderCache } from '../../src/lib/server/courses/reader-cache';
import * as courses from '../../src/lib/server/courses/service';
import { auditEvents, leads } from '../../src/lib/server/db/schema';
import * as leadService from '../../src/lib/server/leads/service';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FsStorage } from '../../src/lib/server/storage';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
const ADMIN = { id: '00000000-0000-4000-8000-0000000000a1', email: 'admin@atelier.test' };
const OTHER = { id: '00000000-0000-4000-8000-0000000000a2', email: 'autre@atelier.test' };
const origin = new URL('https://atelier.test');
/** Where module files would go: these modules have none. */
const storage = new FsStorage({
	root: mkdtempSync(path.join(tmpdir(), 'atelier-audit-')),
	bucket: 'private-gallery',
	origin,
	secret: 'x'.repeat(32)
});

beforeAll(async () => {
	database = await createTestDatabase();
});
afterAll(async () => {
	await database.dispose();
});

/** The trigger's refusal, wherever the driver puts it (drizzle wraps a failed query's error in its cause). */
async function refused(attempt: Promise<unknown>) {
	const error = await attempt.then(
		() => null,
		(e: unknown) => e as Error & { cause?: Error }
	);
	expect(`${error?.message} ${error?.cause?.message}`).toMatch(/audit_events is append-only/);
}

const trail = () => database.db.select().from(auditEvents).orderBy(desc(auditEvents.at));
const count = async () => (await trail()).length;

async function newLead() {
	const [lead] = await database.db
		.insert(leads)
		.values({
			kind: 'contact',
			name: 'Jeanne Martin',
			email: 'jeanne@exemple.fr',
			message: 'Un mur à refaire'
		})
		.returning();
	return lead!;
}

const MODULE = {
	title: 'Les fondations',
	summary: 'Bases',
	content: 'Du texte.',
	published: false,
	durationMinutes: 20
};

describe(`each admin action writes one row, in its transaction, on ${driverName}`, () => {
	beforeEach(async () => {
		await database.db.execute(sql`alter table audit_events disable trigger audit_events_no_truncate`);
		await database.db.execute(sql`truncate audit_events`);
		await database.db.execute(sql`alter table audit_events enable trigger audit_events_no_truncate`);
	});

	it('a module created, changed, moved and deleted: who, what, which record, the fields that changed', async () => {
		const a = await courses.createModule(database.db, new ReaderCache(), MODULE, ADMIN);
		const b = await courses.createModule(
			database.db,
			new ReaderCache(),
			{ ...MODULE, title: 'Les murs' },
			OTHER
		);
		await courses.updateModule(
			database.db,
			new ReaderCache(),
			storage,
			a.id,
			{ published: true, content: 'Plus de texte.' },
			ADMIN
		);
		await courses.moveModule(database.db, new ReaderCache(), b.id, 'up', ADMIN);
		await courses.deleteModule(database.db, new ReaderCache(), storage, b.id, ADMIN);
		const rows = (await trail()).reverse();
		expect(rows.map((r) => [r.kind, r.actorEmail, r.subjectId])).toEqual([
			['module.created', ADMIN.email, a.id],
			['module.created', OTHER.email, b.id],
			['module.updated', ADMIN.email, a.id],
			['modules.reordered', ADMIN.email, b.id],
			['module.deleted', ADMIN.email, b.id]
		]);
		expect(rows[0]!.actorId).toBe(ADMIN.id);
		// Only what changed; of the Markdown, its length, not its text.
		expect(rows[2]!.changes).toEqual({
			published: { before: false, after: true },
			contentLength: { before: 9, after: 14 }
		});
		expect(rows[3]!.changes).toEqual({ order: { before: [a.id, b.id], after: [b.id, a.id] } });
		expect(rows[4]!.changes).toMatchObject({ title: { before: 'Les murs', after: null } });
	});

	it('a refused action writes nothing: a taken slug, a stale order, an unknown record', async () => {
		const a = await courses.createModule(database.db, new ReaderCache(), { ...MODULE, slug: 'pris' }, ADMIN);
		const b = await courses.createModule(database.db, new ReaderCache(), { ...MODULE, slug: 'libre' }, ADMIN);
		const before = await count();
		await expect(
			courses.updateModule(database.db, new ReaderCache(), storage, b.id, { slug: 'pris' }, ADMIN)
		).rejects.toMatchObject({
			status: 409
		});
		await expect(courses.reorderModules(database.db, new ReaderCache(), [a.id], ADMIN)).rejects.toMatchObject(
			{ status: 409 }
		);
		await expect(
			leadService.deleteLead(database.db, '00000000-0000-4000-8000-000000000000', ADMIN)
		).rejects.toMatchObject({ status: 404 });
		expect(await count()).toBe(before);
	});

	it('leads: handled, deleted (what it was, not who wrote it), exported with its filters', async () => {
		const lead = await newLead();
		await leadService.setHandled(database.db, lead.id, true, ADMIN);
		await leadService.exportCsv(database.db, { spam: false, from: new Date('2026-01-01T00:00:00Z') }, ADMIN);
		await leadService.deleteLead(database.db, lead.id, ADMIN);
		const rows = (await trail()).reverse();
		expect(rows.map((r) => r.kind)).toEqual(['lead.handled', 'leads.exported', 'lead.deleted']);
		expect(rows[0]!.changes).toEqual({ handled: { before: false, after: true } });
		expect(rows[1]!.changes).toEqual({
			exported: {
				before: null,
				after: { rows: 1, filters: { spam: false, from: '2026-01-01T00:00:00.000Z' } }
			}
		});
		expect(rows[2]!.changes).toEqual({ kind: { before: 'contact', after: null } });
		// No personal free text reached the trail.
		expect(JSON.stringify(rows)).not.toMatch(/Jeanne|jeanne@|mur à refaire/);
	});

	it('accounts: the first admin, and what `npm run admin` did, by the command line', async () => {
		const first = await setupFirstAdmin(
			database.db,
			{ name: 'Première', email: 'premiere@atelier.test', password: 'un mot de passe très long' },
			'10.9.0.1'
		);
		await recoverAdmin(database.db, 'secours@atelier.test', origin);
		await passwordLinkFor(database.db, 'secours@atelier.test', origin);
		const rows = (await trail()).reverse();
		expect(rows.map((r) => [r.kind, r.actorId, r.actorEmail])).toEqual([
			['admin.first_created', first.id, 'premiere@atelier.test'],
			['admin.created_by_cli', null, 'ligne de commande (npm run admin)'],
			['user.password_link_by_cli', null, 'ligne de commande (npm run admin)']
		]);
		// Never a password, a hash or a link.
		expect(JSON.stringify(rows)).not.toMatch(/mot de passe|argon2|mot-de-passe\//);
	});
});

describe(`the trail is append-only on ${driverName}`, () => {
	it('refuses an update, a delete and a truncate, even of its own rows', async () => {
		await recordAudit(database.db, ADMIN, { kind: 'backup.downloaded', subjectType: 'backup' });
		const [row] = await trail();
		await refused(
			database.db.update(auditEvents).set({ actorEmail: 'personne' }).where(eq(auditEvents.id, row!.id))
		);
		await refused(database.db.delete(auditEvents).where(eq(auditEvents.id, row!.id)));
		await refused(database.db.execute(sql`truncate audit_events`));
		// Claiming to be the retention does not delete a recent row either.
		await refused(
			database.db.transaction(async (tx) => {
				await tx.execute(sql`set local atelier.audit_retention = 'on'`);
				await tx.delete(auditEvents).where(eq(auditEvents.id, row!.id));
			})
		);
		expect((await trail()).some((r) => r.id === row!.id && r.actorEmail === ADMIN.email)).toBe(true);
	});

	it('keeps three years: the retention deletes what is older, and nothing newer', async () => {
		const now = new Date('2026-11-25T12:00:00Z');
		const at = (iso: string) => new Date(iso);
		await database.db.insert(auditEvents).values([
			{ actorEmail: ADMIN.email, kind: 'lead.deleted', subjectType: 'lead', at: at('2023-11-01T00:00:00Z') },
			{ actorEmail: ADMIN.email, kind: 'lead.deleted', subjectType: 'lead', at: at('2023-12-01T00:00:00Z') }
		]);
		const before = await count();
		expect(await purgeOldAudit(database.db, now)).toBe(1);
		const rows = await trail();
		expect(rows).toHaveLength(before - 1);
		expect(rows.some((r) => r.at.toISOString() === '2023-12-01T00:00:00.000Z')).toBe(true);
	});
});

describe(`the « Activité » page's query on ${driverName}`, () => {
	it('filters by admin, kind and dates (the last day included), newest first, in pages', async () => {
		const mark = 'modules.reordered';
		for (let i = 0; i < 5; i++)
			await database.db.insert(auditEvents).values({
				actorId: i % 2 ? OTHER.id : ADMIN.id,
				actorEmail: i % 2 ? OTHER.email : ADMIN.email,
				kind: mark,
				subjectType: 'modules',
				at: new Date(`2025-03-1${i}T10:00:00Z`)
			});
		const byOther = await auditPage(database.db, { actorId: OTHER.id, kind: mark }, 1);
		expect(byOther.events.map((e) => e.at.toISOString().slice(0, 10))).toEqual(['2025-03-13', '2025-03-11']);
		const days = await auditPage(
			database.db,
			{ kind: mark, from: new Date('2025-03-11T00:00:00Z'), to: new Date('2025-03-13T00:00:00Z') },
			1
		);
		expect(days.total).toBe(2);
		const paged = await auditPage(database.db, { kind: mark }, 2, 2);
		expect(paged).toMatchObject({ total: 5, page: 2, pages: 3 });
		expect(paged.events.map((e) => e.at.toISOString().slice(0, 10))).toEqual(['2025-03-12', '2025-03-11']);
		// A page past the end shows the last one.
		expect((await auditPage(database.db, { kind: mark }, 99, 2)).page).toBe(3);
	});
});

describe('changesOf', () => {
	it('keeps the named fields that differ, dates as ISO strings, a missing side as null', () => {
		const when = new Date('2026-01-02T03:04:05Z');
		expect(
			changesOf<{ a: number; b: string; c: Date | null }>(
				{ a: 1, b: 'x', c: null },
				{ a: 1, b: 'y', c: when },
				['a', 'b', 'c']
			)
		).toEqual({ b: { before: 'x', after: 'y' }, c: { before: null, after: '2026-01-02T03:04:05.000Z' } });
		expect(changesOf<{ a: number }>(null, { a: 2 }, ['a'])).toEqual({ a: { before: null, after: 2 } });
	});
});
