/**
 * Course files (issue "Learning, part 2"), on both storage drivers (the files driver, and S3 through s3rver) and the
 * test database's driver: tus uploads through the real route handler (resumed after a cut, refused when they are
 * not what they claim, over the limit, cut short, empty, at a wrong offset or raced), the modules API refusing
 * forged values and releasing replaced files, the members' media route with every range case and its access
 * rules, S3 asked for a range as a range, and abandoned uploads cleaned.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDepsForTests } from '../../src/lib/server/app';
import { loadConfig } from '../../src/lib/server/config';
import * as courses from '../../src/lib/server/courses';
import {
	auditEvents,
	courseFiles,
	courseUploads,
	memberships,
	modules,
	users
} from '../../src/lib/server/db/schema';
import { FsStorage, S3Storage, type Storage } from '../../src/lib/server/storage';
import { GET as media, HEAD as mediaHead } from '../../src/routes/(members)/cours/media/[...path]/+server';
import { POST as position } from '../../src/routes/(members)/cours/[slug]/position/+server';
import { POST as createModule } from '../../src/routes/api/admin/modules/+server';
import {
	DELETE as deleteModule,
	PUT as updateModule
} from '../../src/routes/api/admin/modules/[id=uuid]/+server';
import * as tus from '../../src/routes/api/admin/uploads/[[id]]/+server';
import { createTestDatabase, driverName, type TestDatabase } from '../helpers/database';
import { box, mp4Claiming, tinyBoxes } from '../helpers/mp4';
import { startS3, type RunningS3 } from '../helpers/s3';

const MEDIA = path.resolve(import.meta.dirname, '../fixtures/media');
const fixture = (name: string) => readFileSync(path.join(MEDIA, name));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const ORIGIN = 'http://localhost';
const BUCKET = 'private-gallery';

type User = { id: string; email: string; name: string; isAdmin: boolean };
type Handler = (event: unknown) => Promise<Response>;

/** Calls a route handler as SvelteKit would. A handler that redirects throws; the redirect is returned as a status. */
async function call(
	handler: unknown,
	url: string,
	init: RequestInit & { user: User | null; params?: Record<string, string>; routeId: string }
): Promise<Response> {
	const { user, params = {}, routeId, ...requestInit } = init;
	const event = {
		request: new Request(`${ORIGIN}${url}`, { duplex: 'half', ...requestInit } as RequestInit),
		url: new URL(`${ORIGIN}${url}`),
		params,
		route: { id: routeId },
		locals: { user, session: null },
		cookies: { get: () => undefined, set: () => {}, delete: () => {}, serialize: () => '', getAll: () => [] },
		getClientAddress: () => '10.40.0.1',
		setHeaders: () => {}
	};
	try {
		return await (handler as Handler)(event);
	} catch (thrown) {
		const status = (thrown as { status?: number }).status;
		if (typeof status === 'number') return new Response(null, { status });
		throw thrown;
	}
}

const metadata = (fields: Record<string, string>) =>
	Object.entries(fields)
		.map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
		.join(',');

for (const storageDriver of ['fs', 's3'] as const) {
	describe(`course files on ${driverName}, ${storageDriver} storage`, () => {
		let database: TestDatabase;
		let storage: Storage;
		let s3: RunningS3 | null = null;
		let dataDir: string;
		let admin: User;
		let member: User;
		let formerMember: User;
		/** The S3 requests a recording proxy saw: method, path and Range header. */
		const s3Requests: { method: string; path: string; range: string | undefined }[] = [];
		let proxy: http.Server | null = null;

		beforeAll(async () => {
			database = await createTestDatabase();
			dataDir = mkdtempSync(path.join(tmpdir(), 'atelier-course-files-'));
			if (storageDriver === 's3') {
				s3 = await startS3();
				// Every request to S3 goes through a proxy that notes its Range header.
				proxy = http.createServer((req, res) => {
					s3Requests.push({ method: req.method!, path: req.url!, range: req.headers.range });
					const upstream = http.request(
						{
							host: s3!.endpoint.hostname,
							port: s3!.endpoint.port,
							path: req.url,
							method: req.method,
							headers: req.headers
						},
						(answer) => {
							res.writeHead(answer.statusCode!, answer.headers);
							answer.pipe(res);
						}
					);
					upstream.on('error', () => res.destroy());
					req.pipe(upstream);
				});
				await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
				storage = new S3Storage({
					endpoint: new URL(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`),
					accessKey: s3.accessKey,
					secretKey: s3.secretKey,
					region: 'us-east-1',
					bucket: BUCKET
				});
			} else {
				storage = new FsStorage({
					root: path.join(dataDir, 'storage'),
					bucket: BUCKET,
					origin: new URL(ORIGIN),
					secret: 's'.repeat(32)
				});
			}
			const config = loadConfig({
				DATA_DIR: dataDir,
				SIGNING_SECRET: 's'.repeat(32),
				ORIGIN,
				// 5 MB: the fixture videos and the 4 MiB hostile file fit, an announced 6 MB does not.
				COURSE_VIDEO_MAX_MB: '5'
			});
			useDepsForTests({ db: database.db, storage, config });
			const made = await database.db
				.insert(users)
				.values([
					{ email: 'admin@atelier.test', name: 'Admin', passwordHash: 'x', isAdmin: true },
					{ email: 'membre@atelier.test', name: 'Membre', passwordHash: 'x' },
					{ email: 'ancien@atelier.test', name: 'Ancien', passwordHash: 'x' }
				])
				.returning();
			const asUser = (u: (typeof made)[number]): User => ({
				id: u.id,
				email: u.email,
				name: u.name,
				isAdmin: u.isAdmin
			});
			[admin, member, formerMember] = made.map(asUser) as [User, User, User];
			await database.db.insert(memberships).values([
				{
					userId: member.id,
					stripeSubscriptionId: `sub_${storageDriver}_1`,
					status: 'active',
					stateAt: new Date()
				},
				{
					userId: formerMember.id,
					stripeSubscriptionId: `sub_${storageDriver}_2`,
					status: 'canceled',
					stateAt: new Date()
				}
			]);
		});

		afterAll(async () => {
			useDepsForTests(null);
			await database.dispose();
			proxy?.close();
			await s3?.close();
		});

		// ——— tus ———

		const tusCall = (
			method: string,
			id: string | null,
			headers: Record<string, string>,
			body?: BodyInit | Uint8Array
		) =>
			call(tus[method as keyof typeof tus], `/api/admin/uploads${id ? `/${id}` : ''}`, {
				method,
				headers: { 'tus-resumable': '1.0.0', ...headers },
				body: body as BodyInit | undefined,
				user: admin,
				params: id ? { id } : {},
				routeId: '/api/admin/uploads/[[id]]'
			});

		async function createUpload(kind: string, size: number, filename = 'fichier') {
			const answer = await tusCall('POST', null, {
				'upload-length': String(size),
				'upload-metadata': metadata({ kind, filename })
			});
			if (answer.status !== 201) return { answer, id: null };
			const id = answer.headers.get('location')!.split('/').pop()!;
			return { answer, id };
		}

		const patch = (id: string, offset: number, bytes: BodyInit | Uint8Array) =>
			tusCall(
				'PATCH',
				id,
				{ 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
				bytes
			);

		/** A whole upload in chunks; the last answer. */
		async function upload(kind: string, bytes: Buffer, filename = 'fichier', chunk = 64 * 1024) {
			const { id, answer } = await createUpload(kind, bytes.length, filename);
			if (!id) return answer;
			let last = answer;
			for (let offset = 0; offset < bytes.length; offset += chunk) {
				last = await patch(id, offset, new Uint8Array(bytes.subarray(offset, offset + chunk)));
				if (last.status !== 204 && last.status !== 200) return last;
			}
			return last;
		}

		/** What an upload leaves in the bucket and the database besides course files: nothing, once it is done. */
		async function leftovers() {
			const rows = await database.db.select().from(courseUploads);
			let parts: string[];
			let folders: string[] = [];
			if (s3) parts = (await s3.keys(BUCKET)).filter((key) => key.startsWith('uploads/'));
			else {
				const entries = await readdir(path.join(dataDir, 'storage', BUCKET, 'uploads'), {
					recursive: true,
					withFileTypes: true
				}).catch(() => []);
				parts = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
				// An upload's own folder (uploads/<id>/): it went with its parts, or it stays forever.
				folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
			}
			const spooled = await readdir(path.join(dataDir, 'tmp', 'uploads')).catch(() => []);
			return {
				rows: rows.length,
				// A part's object (and, on the files driver, not its metadata file beside it).
				parts: parts.filter((p) => !p.endsWith('.meta.json')),
				folders,
				spooled
			};
		}

		const NOTHING_LEFT = { rows: 0, parts: [], folders: [], spooled: [] };

		const objectCount = async () => {
			let n = 0;
			for await (const key of storage.list()) if (key.startsWith('course/')) n++;
			return n;
		};

		it('a video arrives in parts, survives a connection cut midway, resumes where it stopped, and is stored whole', async () => {
			const video = fixture('lesson.mp4');
			const { id } = await createUpload('video', video.length, 'leçon 1.mp4');
			expect(id).toMatch(/^[0-9a-f]{32}$/);
			const third = Math.floor(video.length / 3);
			expect((await patch(id!, 0, video.subarray(0, third))).status).toBe(204);
			// A PATCH whose connection drops after some bytes: its part is dropped whole.
			let sent = false;
			const cut = new ReadableStream({
				pull(controller) {
					if (!sent) {
						sent = true;
						controller.enqueue(video.subarray(third, third + 50_000));
					} else controller.error(new Error('connection reset'));
				}
			});
			const interrupted = await patch(id!, third, cut);
			expect(interrupted.status).not.toBe(204);
			// HEAD says where to resume: where the last whole part ended.
			const head = await tusCall('HEAD', id!, {});
			expect(head.status).toBe(200);
			expect(head.headers.get('upload-offset')).toBe(String(third));
			expect(head.headers.get('upload-length')).toBe(String(video.length));
			const rest = await patch(id!, third, video.subarray(third));
			expect(rest.status).toBe(200);
			expect(rest.headers.get('content-type')).toContain('application/json');
			const stored = await rest.json();
			expect(stored).toMatchObject({
				kind: 'video',
				contentType: 'video/mp4',
				size: video.length,
				durationSeconds: 12,
				indexAtEnd: false,
				name: 'leçon 1.mp4'
			});
			expect(stored.value).toMatch(/^storage:course\/[0-9a-f-]{36}\.mp4$/);
			const object = await storage.read(stored.value.slice('storage:'.length));
			const chunks: Buffer[] = [];
			for await (const chunk of object!.body) chunks.push(chunk as Buffer);
			expect(sha(Buffer.concat(chunks))).toBe(sha(video));
			expect(object!.info.contentType).toBe('video/mp4');
			expect(await leftovers()).toEqual(NOTHING_LEFT);
			// The audit trail says who stored it.
			const [audited] = await database.db
				.select()
				.from(auditEvents)
				.where(sql`subject_id = ${stored.value.slice('storage:'.length)}`);
			expect(audited).toMatchObject({ kind: 'course_file.uploaded', actorId: admin.id });
		});

		it('WebM, WebVTT, a PDF and a poster (made WebP by the image pipeline); an MP4 with its index at the end is flagged', async () => {
			const webm = await (await upload('video', fixture('lesson.webm'))).json();
			expect(webm).toMatchObject({ contentType: 'video/webm', durationSeconds: 3 });
			expect(await (await upload('captions', fixture('lesson.vtt'))).json()).toMatchObject({
				contentType: 'text/vtt; charset=utf-8'
			});
			expect(await (await upload('attachment', fixture('fiche.pdf'))).json()).toMatchObject({
				contentType: 'application/pdf',
				size: fixture('fiche.pdf').length
			});
			const jpeg = readFileSync(path.resolve(import.meta.dirname, '../fixtures/images/Landscape_1.jpg'));
			const poster = await (await upload('poster', jpeg, 'affiche.jpg', 1024 * 1024)).json();
			expect(poster).toMatchObject({ contentType: 'image/webp' });
			expect(poster.value).toMatch(/\.webp$/);
			expect(poster.size).toBeLessThanOrEqual(1024 * 1024);
			expect(await (await upload('video', fixture('index-at-end.mp4'))).json()).toMatchObject({
				indexAtEnd: true,
				durationSeconds: 12
			});
			expect(await leftovers()).toEqual(NOTHING_LEFT);
		});

		it('refuses, with a French message and nothing left behind: a renamed executable, a truncated MP4, an empty file, a file over the limit, an unknown kind', async () => {
			const before = await objectCount();
			const exe = Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(200_000, 7)]);
			const renamed = await upload('video', exe, 'lecon.mp4');
			expect(renamed.status).toBe(415);
			expect(await renamed.text()).toMatch(/n’est pas une vidéo MP4/);
			const pdfAsVideo = await upload('video', fixture('fiche.pdf'));
			expect(pdfAsVideo.status).toBe(415);

			const truncated = await upload('video', fixture('truncated.mp4'));
			expect(truncated.status).toBe(422);
			expect(await truncated.text()).toMatch(/incomplète/);

			const empty = await createUpload('video', 0);
			expect(empty.answer.status).toBe(400);
			expect(await empty.answer.text()).toMatch(/vide/);

			const tooLarge = await createUpload('video', 6 * 1024 * 1024);
			expect(tooLarge.answer.status).toBe(413);
			expect(await tooLarge.answer.text()).toMatch(/La vidéo dépasse 5 Mo/);

			const unknown = await createUpload('script', 10);
			expect(unknown.answer.status).toBe(400);

			const deferred = await tusCall('POST', null, {
				'upload-defer-length': '1',
				'upload-metadata': metadata({ kind: 'video' })
			});
			expect(deferred.status).toBeGreaterThanOrEqual(400);
			expect(deferred.status).toBeLessThan(500);

			expect(await objectCount()).toBe(before);
			expect(await leftovers()).toEqual(NOTHING_LEFT);
		});

		it('a video without a sound track is a video: MP4 and WebM taken with their duration', async () => {
			expect(await (await upload('video', fixture('silent.mp4'), 'écran.mp4')).json()).toMatchObject({
				contentType: 'video/mp4',
				durationSeconds: 24,
				indexAtEnd: false
			});
			expect(await (await upload('video', fixture('silent.webm'))).json()).toMatchObject({
				contentType: 'video/webm',
				durationSeconds: 5
			});
			expect(await leftovers()).toEqual(NOTHING_LEFT);
		});

		it('an absurd duration (4,294,967,294 s, or none at all) is a 422 in French, with nothing left', async () => {
			const before = await objectCount();
			const claiming = (duration: number) => mp4Claiming(1, duration, box('mdat', Buffer.alloc(4096, 1)));
			const absurd = await upload('video', claiming(0xfffffffe));
			expect(absurd.status).toBe(422);
			expect(await absurd.text()).toMatch(/durée invraisemblable \(1\s193\s046\sh\)/);
			const none = await upload('video', claiming(0));
			expect(none.status).toBe(422);
			expect(await none.text()).toMatch(/durée de la vidéo est introuvable/);
			expect(await objectCount()).toBe(before);
			expect(await leftovers()).toEqual(NOTHING_LEFT);
		});

		it('4 MiB of 8-byte boxes is stored in at most 3× the time of one 4 MiB box', async () => {
			const size = 4 * 1024 * 1024;
			const hostile = mp4Claiming(1000, 60_000, tinyBoxes(size));
			const normal = mp4Claiming(1000, 60_000, box('mdat', Buffer.alloc(size)));
			const timed = async (bytes: Buffer) => {
				const started = performance.now();
				const answer = await upload('video', bytes, 'film.mp4', 1024 * 1024);
				const ms = performance.now() - started;
				return { ms, answer: await answer.json() };
			};
			const times: { hostile: number[]; normal: number[] } = { hostile: [], normal: [] };
			for (let round = 0; round < 3; round++) {
				const a = await timed(normal);
				const b = await timed(hostile);
				expect(a.answer).toMatchObject({ durationSeconds: 60 });
				expect(b.answer).toMatchObject({ durationSeconds: 60 });
				times.normal.push(a.ms);
				times.hostile.push(b.ms);
			}
			const median = (values: number[]) => values.sort((x, y) => x - y)[1]!;
			expect(median(times.hostile)).toBeLessThan(3 * median(times.normal));
			expect(await leftovers()).toEqual(NOTHING_LEFT);
		});

		it('tus 1.0 to the letter: 412 with Tus-Version for a missing or other version, 415 for a wrong body type, Tus-Max-Size on OPTIONS', async () => {
			const { id } = await createUpload('video', 1000);
			for (const version of [null, '0.2.2', '1.0']) {
				const answer = await call(tus.PATCH, `/api/admin/uploads/${id}`, {
					method: 'PATCH',
					headers: {
						...(version ? { 'tus-resumable': version } : {}),
						'upload-offset': '0',
						'content-type': 'application/offset+octet-stream'
					},
					body: new Uint8Array(10),
					user: admin,
					params: { id: id! },
					routeId: '/api/admin/uploads/[[id]]'
				});
				expect(answer.status, String(version)).toBe(412);
				expect(answer.headers.get('tus-version')).toBe('1.0.0');
				expect(await answer.text()).toMatch(/tus/);
			}
			const wrongType = await tusCall(
				'PATCH',
				id,
				{ 'upload-offset': '0', 'content-type': 'application/json' },
				new Uint8Array(10)
			);
			expect(wrongType.status).toBe(415);
			expect(await wrongType.text()).toMatch(/application\/offset\+octet-stream/);
			const options = await call(tus.OPTIONS, '/api/admin/uploads', {
				method: 'OPTIONS',
				headers: {},
				user: admin,
				routeId: '/api/admin/uploads/[[id]]'
			});
			expect(options.status).toBe(204);
			expect(options.headers.get('tus-version')).toBe('1.0.0');
			expect(Number(options.headers.get('tus-max-size'))).toBe(200 * 1024 * 1024);
			expect((await tusCall('HEAD', id, {})).headers.get('upload-offset')).toBe('0');
			expect((await tusCall('DELETE', id, {})).status).toBe(204);
			expect(await leftovers()).toEqual(NOTHING_LEFT);
		});

		it('a PATCH at a wrong offset is refused (409) and changes nothing; of parallel PATCHes at one offset, one is kept', async () => {
			const video = fixture('lesson.mp4');
			const { id } = await createUpload('video', video.length);
			const wrong = await patch(id!, 1000, video.subarray(1000, 2000));
			expect(wrong.status).toBe(409);
			expect((await tusCall('HEAD', id!, {})).headers.get('upload-offset')).toBe('0');

			const part = video.subarray(0, 100_000);
			const answers = await Promise.all(Array.from({ length: 6 }, () => patch(id!, 0, part)));
			const statuses = answers.map((a) => a.status);
			expect(statuses.filter((s) => s === 204).length).toBeGreaterThanOrEqual(1);
			expect(statuses.every((s) => s === 204 || (s >= 400 && s < 500))).toBe(true);
			// However many were accepted, the upload holds the part once.
			const offset = Number((await tusCall('HEAD', id!, {})).headers.get('upload-offset'));
			expect(offset).toBe(100_000);
			const [row] = await database.db
				.select()
				.from(courseUploads)
				.where(sql`id = ${id}`);
			expect(row!.parts.map((p) => p.size)).toEqual([100_000]);
			// It completes from there, to the same bytes.
			const done = await patch(id!, offset, video.subarray(offset));
			expect(done.status).toBe(200);
			const stored = await done.json();
			const object = await storage.read(stored.value.slice('storage:'.length));
			const chunks: Buffer[] = [];
			for await (const chunk of object!.body) chunks.push(chunk as Buffer);
			expect(sha(Buffer.concat(chunks))).toBe(sha(video));
			expect(await leftovers()).toEqual(NOTHING_LEFT);
		});

		it('only admins, and only from this site: members get 403, visitors 401, another origin 403', async () => {
			const post = (user: User | null, origin?: string) =>
				call(tus.POST, '/api/admin/uploads', {
					method: 'POST',
					headers: {
						'tus-resumable': '1.0.0',
						'upload-length': '10',
						'upload-metadata': metadata({ kind: 'video' }),
						...(origin ? { origin } : {})
					},
					user,
					routeId: '/api/admin/uploads/[[id]]'
				});
			expect((await post(member)).status).toBe(403);
			expect((await post(null)).status).toBe(401);
			expect((await post(admin, 'https://evil.example')).status).toBe(403);
			expect((await post(admin, ORIGIN)).status).toBe(201);
			// That last one is abandoned: the daily job takes it.
			await database.db.execute(sql`update course_uploads set updated_at = now() - interval '25 hours'`);
			expect(await courses.purgeAbandonedFiles()).toMatchObject({ uploads: 1 });
			expect(await leftovers()).toEqual(NOTHING_LEFT);
		});

		it('an abandoned upload (a day untouched) and a file never saved into a module are removed by the daily job', async () => {
			const video = fixture('lesson.mp4');
			const { id } = await createUpload('video', video.length);
			expect((await patch(id!, 0, video.subarray(0, 100_000))).status).toBe(204);
			const orphan = await (await upload('attachment', fixture('fiche.pdf'))).json();
			// Half an upload is nobody's object: a backup (which lists the bucket) never carries its parts.
			expect((await leftovers()).parts).toHaveLength(1);
			const listed: string[] = [];
			for await (const key of storage.list()) listed.push(key);
			expect(listed.filter((key) => key.startsWith('uploads/'))).toEqual([]);
			expect(listed).toContain(orphan.value.slice('storage:'.length));
			// Not yet a day: kept.
			expect(await courses.purgeAbandonedFiles()).toEqual({ uploads: 0, files: 0 });
			await database.db.execute(sql`update course_uploads set updated_at = now() - interval '25 hours'`);
			await database.db.execute(
				sql`update course_files set created_at = now() - interval '25 hours' where path = ${orphan.value.slice(8)}`
			);
			const purged = await courses.purgeAbandonedFiles();
			expect(purged.uploads).toBe(1);
			expect(purged.files).toBeGreaterThanOrEqual(1);
			expect(await storage.stat(orphan.value.slice(8))).toBeNull();
			expect(await leftovers()).toEqual(NOTHING_LEFT);
			// HEAD on it now: gone.
			expect((await tusCall('HEAD', id!, {})).status).toBe(404);
		});

		// ——— Modules carry them ———

		const moduleCall = (handler: unknown, method: string, body: unknown, id?: string) =>
			call(handler, `/api/admin/modules${id ? `/${id}` : ''}`, {
				method,
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
				user: admin,
				params: id ? { id } : {},
				routeId: id ? '/api/admin/modules/[id=uuid]' : '/api/admin/modules'
			});

		let lesson: {
			id: string;
			slug: string;
			video: string;
			captions: string;
			poster: string;
			attachment: string;
		};

		it('a module takes a video, captions, a poster and attachments; forged or mismatched values are refused naming the field', async () => {
			const video = (await (await upload('video', fixture('lesson.mp4'))).json()).value;
			const captions = (await (await upload('captions', fixture('lesson.vtt'))).json()).value;
			// A poster as trainers make them: a 1920 × 1080 frame, so that its smaller widths are stored beside it.
			const jpeg = await sharp(
				path.resolve(import.meta.dirname, '../fixtures/images/2569067123_aca715a2ee_o.jpg')
			)
				.resize(1920, 1080, { fit: 'cover' })
				.jpeg()
				.toBuffer();
			const poster = (await (await upload('poster', jpeg, 'a.jpg', 2 * 1024 * 1024)).json()).value;
			const attachment = (await (await upload('attachment', fixture('fiche.pdf'))).json()).value;

			const forged = 'storage:course/3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c.mp4';
			const refused = await moduleCall(createModule, 'POST', { title: 'Faux', video: forged });
			expect(refused.status).toBe(400);
			expect((await refused.json()).errors).toHaveProperty('video');
			const swapped = await moduleCall(createModule, 'POST', { title: 'Faux', video: poster });
			expect(swapped.status).toBe(400);
			expect((await swapped.json()).errors.video[0]).toMatch(/n’est pas une vidéo/);
			const siteImage = await moduleCall(createModule, 'POST', {
				title: 'Faux',
				poster: 'storage:3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c.webp'
			});
			expect(siteImage.status).toBe(400);
			expect((await siteImage.json()).errors).toHaveProperty('poster');
			const badAttachment = await moduleCall(createModule, 'POST', {
				title: 'Faux',
				attachments: [{ value: video, title: 'Pas un PDF' }]
			});
			expect(badAttachment.status).toBe(400);
			expect((await badAttachment.json()).errors).toHaveProperty('attachments');
			expect(await database.db.select().from(modules)).toEqual([]);

			const created = await moduleCall(createModule, 'POST', {
				title: 'Photographier un chantier',
				published: true,
				video,
				captions,
				poster,
				attachments: [{ value: attachment, title: 'Fiche : les bons angles' }]
			});
			expect(created.status).toBe(201);
			const body = await created.json();
			expect(body).toMatchObject({ video, captions, poster, attachments: [{ value: attachment }] });
			lesson = { id: body.id, slug: body.slug, video, captions, poster, attachment };
		});

		// ——— Members get the bytes, and only they ———

		const fetchMedia = (
			value: string,
			user: User | null,
			headers: Record<string, string> = {},
			method = 'GET'
		) =>
			call(method === 'HEAD' ? mediaHead : media, `/cours/media/${value.slice('storage:'.length)}`, {
				method,
				headers,
				user,
				params: { path: value.slice('storage:'.length) },
				routeId: '/(members)/cours/media/[...path]'
			});

		it('every range case: whole, a range, an open range, a suffix, unsatisfiable, If-Range, HEAD, ETag and 304', async () => {
			const video = fixture('lesson.mp4');
			const whole = await fetchMedia(lesson.video, member);
			expect(whole.status).toBe(200);
			expect(whole.headers.get('accept-ranges')).toBe('bytes');
			expect(whole.headers.get('content-length')).toBe(String(video.length));
			expect(whole.headers.get('content-type')).toBe('video/mp4');
			expect(whole.headers.get('cache-control')).toMatch(/^private/);
			expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
			const etag = whole.headers.get('etag')!;
			expect(etag).toMatch(/^"[^"]+"$/);
			expect(sha(new Uint8Array(await whole.arrayBuffer()))).toBe(sha(video));

			const range = await fetchMedia(lesson.video, member, { range: 'bytes=100-1099' });
			expect(range.status).toBe(206);
			expect(range.headers.get('content-range')).toBe(`bytes 100-1099/${video.length}`);
			expect(range.headers.get('content-length')).toBe('1000');
			expect(Buffer.from(await range.arrayBuffer()).equals(video.subarray(100, 1100))).toBe(true);

			const middle = Math.floor(video.length / 2);
			const open = await fetchMedia(lesson.video, member, { range: `bytes=${middle}-` });
			expect(open.status).toBe(206);
			expect(Buffer.from(await open.arrayBuffer()).equals(video.subarray(middle))).toBe(true);

			const suffix = await fetchMedia(lesson.video, member, { range: 'bytes=-500' });
			expect(suffix.status).toBe(206);
			expect(suffix.headers.get('content-range')).toBe(
				`bytes ${video.length - 500}-${video.length - 1}/${video.length}`
			);
			expect(Buffer.from(await suffix.arrayBuffer()).equals(video.subarray(-500))).toBe(true);

			const beyond = await fetchMedia(lesson.video, member, { range: `bytes=${video.length}-` });
			expect(beyond.status).toBe(416);
			expect(beyond.headers.get('content-range')).toBe(`bytes */${video.length}`);

			const sameVersion = await fetchMedia(lesson.video, member, { range: 'bytes=0-9', 'if-range': etag });
			expect(sameVersion.status).toBe(206);
			const otherVersion = await fetchMedia(lesson.video, member, {
				range: 'bytes=0-9',
				'if-range': '"autre"'
			});
			expect(otherVersion.status).toBe(200);
			expect(otherVersion.headers.get('content-length')).toBe(String(video.length));
			await otherVersion.body?.cancel();

			const head = await fetchMedia(lesson.video, member, { range: 'bytes=0-9' }, 'HEAD');
			expect(head.status).toBe(206);
			expect(head.headers.get('content-length')).toBe('10');
			expect(head.body).toBeNull();

			const unchanged = await fetchMedia(lesson.video, member, { 'if-none-match': etag });
			expect(unchanged.status).toBe(304);

			const captions = await fetchMedia(lesson.captions, member);
			expect(captions.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
			expect(await captions.text()).toContain('WEBVTT');
		});

		it('an attachment downloads under its title', async () => {
			const answer = await fetchMedia(lesson.attachment, member);
			expect(answer.status).toBe(200);
			expect(answer.headers.get('content-type')).toBe('application/pdf');
			const disposition = answer.headers.get('content-disposition')!;
			expect(disposition).toMatch(
				/^attachment; filename="Fiche _ les bons angles\.pdf"|^attachment; filename="Fiche : les bons angles\.pdf"/
			);
			expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('Fiche : les bons angles.pdf')}`);
			expect(Buffer.from(await answer.arrayBuffer()).equals(fixture('fiche.pdf'))).toBe(true);
		});

		it('a poster is offered at the player’s width, read under its module’s rules, and whole when that width is not stored', async () => {
			const offered = (await courses.page(lesson.slug, member)).media!.poster!;
			const posterPath = lesson.poster.slice('storage:'.length);
			expect(offered.fullUrl).toBe(`/cours/media/${posterPath}`);
			expect(offered.width).toBe(800);
			expect(offered.url).toBe(`/cours/media/${posterPath.replace(/\.webp$/, '-w800.webp')}`);
			const variant = lesson.poster.replace(/\.webp$/, '-w800.webp');
			const answer = await fetchMedia(variant, member);
			expect(answer.status).toBe(200);
			expect(answer.headers.get('content-type')).toBe('image/webp');
			const bytes = Buffer.from(await answer.arrayBuffer());
			expect((await sharp(bytes).metadata()).width).toBe(800);
			for (const width of [480, 1200, 1600])
				expect(await storage.stat(posterPath.replace(/\.webp$/, `-w${width}.webp`))).not.toBeNull();
			// Its poster's rules: no visitor, no former member; a width no page offers is no file.
			expect((await fetchMedia(variant, null)).status).toBe(303);
			expect((await fetchMedia(variant, formerMember)).status).toBe(403);
			expect((await fetchMedia(lesson.poster.replace(/\.webp$/, '-w801.webp'), member)).status).toBe(404);
			expect((await fetchMedia(lesson.poster.replace(/\.webp$/, '-w800-w800.webp'), member)).status).toBe(
				404
			);
			expect((await fetchMedia(lesson.video.replace(/\.mp4$/, '-w800.webp'), member)).status).toBe(404);
			expect((await fetchMedia(lesson.attachment.replace(/\.pdf$/, '-w800.webp'), admin)).status).toBe(404);
			// A poster stored before its widths were (or narrower than the width): the whole poster.
			await storage.delete(variant.slice('storage:'.length));
			const whole = await fetchMedia(variant, member);
			expect(whole.status).toBe(200);
			expect((await sharp(Buffer.from(await whole.arrayBuffer())).metadata()).width).toBe(1920);
		});

		if (storageDriver === 's3')
			it('a range is asked of S3 as a range, not read from the start', async () => {
				s3Requests.length = 0;
				const answer = await fetchMedia(lesson.video, member, { range: 'bytes=200000-200999' });
				expect(answer.status).toBe(206);
				await answer.arrayBuffer();
				const gets = s3Requests.filter((r) => r.method === 'GET' && r.path.includes('course/'));
				expect(gets).toHaveLength(1);
				expect(gets[0]!.range).toBe('bytes=200000-200999');
			});

		it('who may fetch them is who may read the module: not a visitor, not a former member, not an unpublished module’s, not a deleted module’s', async () => {
			expect((await fetchMedia(lesson.video, null)).status).toBe(303);
			expect((await fetchMedia(lesson.video, formerMember, { range: 'bytes=0-9' })).status).toBe(403);
			expect((await fetchMedia(lesson.attachment, formerMember)).status).toBe(403);
			// A file no module names: not found, even to a member.
			const loose = (await (await upload('attachment', fixture('fiche.pdf'))).json()).value;
			expect((await fetchMedia(loose, member)).status).toBe(404);
			// Unpublished: members no longer, the admin still (a preview).
			expect((await moduleCall(updateModule, 'PUT', { published: false }, lesson.id)).status).toBe(200);
			expect((await fetchMedia(lesson.video, member, { range: 'bytes=0-9' })).status).toBe(404);
			expect((await fetchMedia(lesson.video, admin, { range: 'bytes=0-9' })).status).toBe(206);
			expect((await moduleCall(updateModule, 'PUT', { published: true }, lesson.id)).status).toBe(200);
			expect((await fetchMedia(lesson.video, member, { range: 'bytes=0-9' })).status).toBe(206);
		});

		it('a member’s position is kept (clamped to the video), and shown as where to resume', async () => {
			const save = (seconds: string, user: User = member) =>
				call(position, `/cours/${lesson.slug}/position`, {
					method: 'POST',
					headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
					body: new URLSearchParams({ seconds }).toString(),
					user,
					params: { slug: lesson.slug },
					routeId: '/(members)/cours/[slug]/position'
				});
			expect((await save('6.4')).status).toBe(204);
			expect((await courses.page(lesson.slug, member)).media!.resumeAt).toBe(6);
			expect((await save('9999')).status).toBe(204);
			expect((await courses.page(lesson.slug, member)).media!.resumeAt).toBe(12);
			expect((await save('abc')).status).toBe(400);
			expect((await save('5', formerMember)).status).toBe(403);
			const progress = await courses.progressOf(member.id);
			expect(progress.next).toMatchObject({ slug: lesson.slug, resumeAt: 12 });
		});

		it('replacing a file deletes the old object once no module names it; deleting the module deletes the rest', async () => {
			const newVideo = (await (await upload('video', fixture('lesson.webm'))).json()).value;
			// A second module shares the captions: they stay while it names them.
			const other = await moduleCall(createModule, 'POST', { title: 'Autre', captions: lesson.captions });
			expect(other.status).toBe(201);
			const otherId = (await other.json()).id;
			expect(
				(await moduleCall(updateModule, 'PUT', { video: newVideo, attachments: [] }, lesson.id)).status
			).toBe(200);
			expect(await storage.stat(lesson.video.slice(8))).toBeNull();
			expect(await storage.stat(lesson.attachment.slice(8))).toBeNull();
			expect(await storage.stat(newVideo.slice(8))).not.toBeNull();

			const removeModule = (id: string) =>
				call(deleteModule, `/api/admin/modules/${id}`, {
					method: 'DELETE',
					user: admin,
					params: { id },
					routeId: '/api/admin/modules/[id=uuid]'
				});
			expect((await removeModule(lesson.id)).status).toBe(204);
			expect(await storage.stat(newVideo.slice(8))).toBeNull();
			expect(await storage.stat(lesson.poster.slice(8))).toBeNull();
			for (const width of [480, 1200, 1600])
				expect(await storage.stat(lesson.poster.slice(8).replace(/\.webp$/, `-w${width}.webp`))).toBeNull();
			expect(await storage.stat(lesson.captions.slice(8))).not.toBeNull();
			// The deleted module's files are no one's to fetch.
			expect((await fetchMedia(newVideo, member)).status).toBe(404);
			const rows = await database.db
				.select()
				.from(courseFiles)
				.where(sql`path = ${newVideo.slice(8)}`);
			expect(rows).toEqual([]);
			expect((await removeModule(otherId)).status).toBe(204);
			expect(await storage.stat(lesson.captions.slice(8))).toBeNull();
		});
	});
}
