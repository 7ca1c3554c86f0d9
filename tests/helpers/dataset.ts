/**
 * A small data set with every kind of row the product keeps — an admin and members with sessions, candidatures in
 * each state, memberships, leads, the e-mail log, modules and progress, Stripe events, password and e-mail-change
 * tokens, drafts, site images stored as real WebP uploads with their widths — for the backup and restore tests.
 */
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/lib/server/db';
import { rowsOf } from '../../src/lib/server/db/migrate';
import * as schema from '../../src/lib/server/db/schema';
import { hashPassword } from '../../src/lib/server/auth/password';
import { storeUpload } from '../../src/lib/server/images/upload';
import type { Storage } from '../../src/lib/server/storage';
import { fixture } from './fixtures';

export const ADMIN = { email: 'patronne@exemple.fr', password: 'une phrase de passe solide' };
export const MEMBER = { email: 'membre@exemple.fr', password: 'un autre mot de passe long' };

export interface Dataset {
	adminId: string;
	memberId: string;
	approvedCandidatureId: string;
	objectPaths: string[];
}

const candidature = (email: string, status: 'pending' | 'approved' | 'rejected' | 'enrolled') => ({
	status,
	firstName: 'Jeanne',
	lastName: `Maçonne ${status}`,
	email,
	phone: '+33612345678',
	postalCode: '69001',
	city: 'Lyon',
	trade: 'maconnerie',
	company: `SARL ${status}`,
	siret: '73282932000074',
	yearsExperience: 12,
	teamSize: 3,
	currentSite: status === 'pending' ? null : 'https://exemple.fr',
	goals: ['clients', 'visibilite'],
	presence: ['site'],
	hoursPerWeek: 4,
	motivation: 'Trouver des chantiers « en direct », sans intermédiaire.\nEt une ligne de plus.',
	consentAt: new Date('2026-03-01T10:00:00.123Z')
});

export async function seedDataset(db: Db, storage: Storage): Promise<Dataset> {
	const [admin] = await db
		.insert(schema.users)
		.values({
			email: ADMIN.email,
			name: 'Patronne',
			passwordHash: await hashPassword(ADMIN.password),
			isAdmin: true
		})
		.returning();
	const [member] = await db
		.insert(schema.users)
		.values({ email: MEMBER.email, name: 'Membre', passwordHash: await hashPassword(MEMBER.password) })
		.returning();
	await db.insert(schema.users).values({ email: 'autre@exemple.fr', name: 'Zoë Ñ', passwordHash: 'x' });
	await db.insert(schema.sessions).values({
		id: 'a'.repeat(64),
		userId: member!.id,
		expiresAt: new Date('2030-01-01T00:00:00Z')
	});
	await db.insert(schema.passwordTokens).values({
		hash: 'b'.repeat(64),
		userId: member!.id,
		purpose: 'welcome',
		expiresAt: new Date('2030-01-01T00:00:00Z')
	});
	await db.insert(schema.emailChanges).values({
		hash: 'c'.repeat(64),
		userId: member!.id,
		newEmail: 'nouvelle@exemple.fr',
		expiresAt: new Date('2030-01-01T00:00:00Z')
	});

	await db.insert(schema.candidatures).values(candidature('attente@exemple.fr', 'pending'));
	await db.insert(schema.candidatures).values({
		...candidature('refus@exemple.fr', 'rejected'),
		decidedAt: new Date(),
		decidedBy: admin!.id,
		rejectionReason: 'Pas de SIRET actif'
	});
	const [approved] = await db
		.insert(schema.candidatures)
		.values({
			...candidature('accord@exemple.fr', 'approved'),
			decidedAt: new Date(),
			decidedBy: admin!.id,
			checkoutAttempt: 1,
			checkoutSessionId: 'cs_test_123',
			checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_123'
		})
		.returning();
	const [enrolled] = await db
		.insert(schema.candidatures)
		.values({ ...candidature(MEMBER.email, 'enrolled'), userId: member!.id, decidedBy: admin!.id })
		.returning();
	await db
		.insert(schema.candidatureDrafts)
		.values({ id: 'd'.repeat(64), answers: { step: 2, trade: 'autre' } });
	await db.insert(schema.memberships).values({
		userId: member!.id,
		candidatureId: enrolled!.id,
		stripeCustomerId: 'cus_123',
		stripeSubscriptionId: 'sub_123',
		status: 'active',
		currentPeriodEnd: new Date('2027-01-01T00:00:00Z'),
		stateAt: new Date('2026-11-01T08:00:00.654321Z')
	});
	await db
		.insert(schema.stripeEvents)
		.values({ id: 'evt_1', type: 'checkout.session.completed', outcome: 'applied' });

	await db.insert(schema.leads).values([
		{
			kind: 'contact',
			name: 'Client',
			email: 'client@exemple.fr',
			message: 'Bonjour\u00a0! Un mur à refaire.'
		},
		{
			kind: 'devis',
			name: 'Société',
			email: 'devis@exemple.fr',
			phone: '0612345678',
			company: 'SCI',
			city: 'Lyon',
			projectType: 'mur',
			message: 'Devis',
			handled: true,
			notifiedAt: new Date()
		},
		{
			kind: 'contact',
			name: 'Robot',
			email: 'spam@exemple.fr',
			message: 'http://x',
			spam: true,
			spamReason: 'honeypot'
		}
	]);
	await db.insert(schema.emails).values([
		{ to: ADMIN.email, subject: 'Nouvelle demande', template: 'lead', status: 'sent', sentAt: new Date() },
		{ to: 'x@exemple.fr', subject: 'Échec', template: 'lead-ack', status: 'failed', error: 'ECONNREFUSED' }
	]);
	await db.insert(schema.jobRuns).values({ name: 'retention', lastRunAt: new Date(), detail: '0 leads' });

	const modules = await db
		.insert(schema.modules)
		.values([
			{
				slug: 'bienvenue',
				title: 'Bienvenue',
				content: '# Bienvenue\n\nTexte.',
				position: 1,
				published: true,
				durationMinutes: 5
			},
			{
				slug: 'devis',
				title: 'Le devis',
				content: '## Devis',
				position: 2,
				published: true,
				durationMinutes: 20
			},
			{ slug: 'brouillon', title: 'Brouillon', position: 3 }
		])
		.returning();
	await db.insert(schema.moduleProgress).values({ userId: member!.id, moduleId: modules[0]!.id });

	const objectPaths: string[] = [];
	for (const [key, name] of [
		['hero', 'Landscape_1.jpg'],
		['about', 'Portrait_3.jpg']
	] as const) {
		const upload = await storeUpload(storage, await readFile(fixture(name)), 'image/jpeg', { maxEdge: 2560 });
		await upload.variantsStored;
		await db
			.insert(schema.siteImages)
			.values({ key, url: upload.value, alt: `Photo ${key}`, updatedBy: admin!.id });
		objectPaths.push(upload.path);
	}
	await db.insert(schema.siteImages).values({ key: 'cta', url: 'https://images.unsplash.com/photo-1' });

	// The site's words: a page at its second revision with a draft beside it, an article moved once (a redirect).
	await db.insert(schema.contentEntries).values([
		{
			id: 'contact',
			kind: 'page',
			path: '/contact',
			version: 3,
			liveRevision: 2,
			draft: { title: 'Brouillon « ß »' }
		},
		{ id: '7d0c1d2e-0000-4000-8000-000000000001', kind: 'article', path: '/blog/nouvelle', liveRevision: 1 }
	]);
	await db.insert(schema.contentRevisions).values([
		{ entryId: 'contact', n: 1, fields: { title: 'Demander un audit gratuit' } },
		{ entryId: 'contact', n: 2, fields: { title: 'Un audit offert' }, publishedBy: admin!.id },
		{
			entryId: '7d0c1d2e-0000-4000-8000-000000000001',
			n: 1,
			fields: { title: 'Un article', slug: 'nouvelle' }
		}
	]);
	await db.insert(schema.contentRedirects).values({ fromPath: '/blog/ancienne', toPath: '/blog/nouvelle' });
	return { adminId: admin!.id, memberId: member!.id, approvedCandidatureId: approved!.id, objectPaths };
}

/** Every table's rows as PostgreSQL renders them, in a stable order: two databases compare equal row for row. */
export async function dumpTables(db: Db): Promise<Record<string, string[]>> {
	const tables = rowsOf<{ name: string }>(
		await db.execute(
			sql`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by relname`
		)
	).map((row) => row.name);
	const dump: Record<string, string[]> = {};
	for (const table of tables)
		dump[table] = rowsOf<{ row: string }>(
			await db.execute(sql.raw(`select to_jsonb(t)::text as row from "${table}" t order by 1`))
		).map((r) => r.row);
	return dump;
}

/** Every object's path and bytes' SHA-256, sorted. */
export async function dumpBucket(storage: Storage): Promise<Record<string, string>> {
	const { createHash } = await import('node:crypto');
	const paths: string[] = [];
	for await (const objectPath of storage.list()) paths.push(objectPath);
	const dump: Record<string, string> = {};
	for (const objectPath of paths.sort()) {
		const object = await storage.read(objectPath);
		const hash = createHash('sha256');
		for await (const chunk of object!.body) hash.update(chunk as Buffer);
		dump[objectPath] = `${object!.info.contentType} ${object!.info.cacheControl} ${hash.digest('hex')}`;
	}
	return dump;
}
