/**
 * « Poser une question au formateur » (issue « Formation, part 1 », point 2): the technical and pedagogical
 * assistance that Code du travail D6313-3-1 requires of a course followed at a distance, dated and kept. A thread is
 * one member's and the admins'; a member's message leaves it awaiting an answer, a trainer's answers it. The admins
 * are told of a question by e-mail (one per admin and member a quarter of an hour), the member of each answer.
 */
import { randomUUID } from 'node:crypto';
import { renderMarkdown } from '$lib/markdown';
import { countRequest } from '../abuse';
import type { Db, DbOrTx } from '../db';
import { NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../errors';
import { detectImageType } from '../imaging';
import { log } from '../log';
import { questionAnswered, questionAsked, sendWith, type MailDeps } from '../mail';
import type { Storage } from '../storage';
import * as queries from './queries';
import { addWorkingDays } from './working-days';

/** 20 questions a day per member (a new thread; the messages of a thread are not counted). */
export const QUESTION_LIMIT = { name: 'course-question', max: 20, windowSeconds: 24 * 60 * 60 };
/** Messages in threads, per author: generous, against a script, not a person. */
export const MESSAGE_LIMIT = { name: 'course-question-message', max: 60, windowSeconds: 60 * 60 };
export const ADMIN_NOTICE_QUIET_MINUTES = 15;
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** The admins' list shows this many threads at most (the unanswered first). */
export const ADMIN_LIST_MAX = 200;

export interface QuestionDeps {
	db: Db;
	storage: Storage;
	mail: MailDeps;
	origin: URL;
}

export interface Reader {
	id: string;
	name: string;
	email: string;
	isAdmin: boolean;
}

/** An attachment as sent: its name, declared type and bytes; checked by its bytes, never by what it says it is. */
export interface Attachment {
	filename: string;
	data: Buffer;
}

const PDF_MAGIC = Buffer.from('%PDF-');
const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/gif': 'gif',
	'image/webp': 'webp',
	'image/avif': 'avif'
};

/** A PDF or an image (by its first bytes) of at most 10 MB, stored under a new name; its name kept for display. */
async function storeAttachment(storage: Storage, file: Attachment | null) {
	if (!file || !file.data.length) return {};
	if (file.data.length > ATTACHMENT_MAX_BYTES)
		throw new ValidationError({ file: ['Pièce jointe trop lourde (10 Mo au plus).'] });
	const type = file.data.subarray(0, 5).equals(PDF_MAGIC) ? 'application/pdf' : detectImageType(file.data);
	if (!type)
		throw new UnsupportedMediaTypeError('Pièce jointe : un PDF ou une image (JPEG, PNG, WebP, GIF ou AVIF).');
	const objectPath = `questions/${randomUUID()}.${EXTENSIONS[type]}`;
	await storage.put(objectPath, file.data, { contentType: type, cacheControl: 'private, no-store' });
	// Kept for display only: no control character, no path, at most 150 characters.
	const name =
		// eslint-disable-next-line no-control-regex -- a file name shown to people holds no control character
		file.filename.replace(/[\u0000-\u001f\u007f/\\]/g, '').slice(-150) || `piece-jointe.${EXTENSIONS[type]}`;
	return { attachmentPath: objectPath, attachmentName: name, attachmentType: type };
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

/** The admins, each told at most once per member in a quarter of an hour; a failed e-mail is logged, never thrown. */
async function tellAdmins(
	deps: QuestionDeps,
	member: Reader,
	thread: { id: string; moduleTitle: string },
	delayDays: number,
	now: Date
) {
	for (const admin of await queries.adminsToTell(deps.db)) {
		if (admin.id === member.id) continue;
		if (!(await queries.claimQuestionNotice(deps.db, admin.id, member.id, now, ADMIN_NOTICE_QUIET_MINUTES)))
			continue;
		await sendWith(deps.mail, {
			to: { name: admin.name, address: admin.email },
			template: 'question-asked',
			...questionAsked(
				member.name,
				thread.moduleTitle,
				new URL(`/admin/questions/${thread.id}`, deps.origin).href,
				delayDays
			)
		}).catch((error) => log.error('question notice not sent', { error }));
	}
}

/**
 * A member's new question about a module they may read (published; by id or slug): 20 a day, then 429. The thread
 * and its first message are written together; the admins are told after it committed.
 */
export async function askQuestion(
	deps: QuestionDeps,
	member: Reader,
	module: { id: string; title: string },
	text: string,
	attachment: Attachment | null,
	delayDays: number,
	now = new Date()
): Promise<{ id: string; tell: Promise<void> }> {
	await countRequest(deps.db, QUESTION_LIMIT, member.id);
	const stored = await storeAttachment(deps.storage, attachment);
	const id = await deps.db.transaction((tx) =>
		queries.insertThread(
			tx,
			{ userId: member.id, moduleId: module.id, moduleTitle: module.title, at: now },
			{ authorId: member.id, body: text, ...stored }
		)
	);
	return { id, tell: tellAdmins(deps, member, { id, moduleTitle: module.title }, delayDays, now) };
}

/** The thread for its member or an admin; a 404 for anyone else (another member learns nothing of it). */
export async function readableThread(db: DbOrTx, id: string, reader: { id: string; isAdmin: boolean }) {
	const thread = await queries.threadById(db, id);
	if (!thread || (!reader.isAdmin && thread.userId !== reader.id))
		throw new NotFoundError('Cette question est introuvable.');
	return thread;
}

export interface ThreadView {
	id: string;
	module: string;
	moduleId: string | null;
	memberId: string;
	createdAt: Date;
	awaitingSince: Date | null;
	/** When an answer is due (the promised working days after the first unanswered message); null if answered. */
	dueAt: Date | null;
	messages: {
		id: string;
		from: 'member' | 'trainer';
		text: string;
		html: string;
		at: Date;
		attachment: { name: string; type: string } | null;
	}[];
}

export async function threadView(
	db: DbOrTx,
	id: string,
	reader: { id: string; isAdmin: boolean },
	delayDays: number
): Promise<ThreadView> {
	const thread = await readableThread(db, id, reader);
	const messages = await queries.messagesOf(db, id);
	return {
		id: thread.id,
		module: thread.moduleTitle,
		moduleId: thread.moduleId,
		memberId: thread.userId,
		createdAt: thread.createdAt,
		awaitingSince: thread.awaitingSince,
		dueAt: thread.awaitingSince ? addWorkingDays(thread.awaitingSince, delayDays) : null,
		messages: messages.map((m) => ({
			id: m.id,
			from: m.author,
			text: m.body,
			// The one Markdown renderer of the site: raw HTML is escaped, links made safe.
			html: renderMarkdown(m.body),
			at: m.createdAt,
			attachment:
				m.attachmentPath && m.attachmentName ? { name: m.attachmentName, type: m.attachmentType ?? '' } : null
		}))
	};
}

/**
 * A message in a thread: the member on their own (404 on another's), an admin on any — as the trainer. A member's
 * message tells the admins (quietly, as a question does); a trainer's tells the member.
 */
export async function postMessage(
	deps: QuestionDeps,
	threadId: string,
	author: Reader,
	text: string,
	attachment: Attachment | null,
	delayDays: number,
	now = new Date()
): Promise<{ tell: Promise<void> }> {
	const thread = await readableThread(deps.db, threadId, author);
	await countRequest(deps.db, MESSAGE_LIMIT, author.id);
	const from = thread.userId === author.id ? 'member' : 'trainer';
	const stored = await storeAttachment(deps.storage, attachment);
	await deps.db.transaction((tx) =>
		queries.insertMessage(tx, {
			threadId,
			authorId: author.id,
			author: from,
			body: text,
			createdAt: now,
			...stored
		})
	);
	if (from === 'member')
		return {
			tell: tellAdmins(deps, author, { id: threadId, moduleTitle: thread.moduleTitle }, delayDays, now)
		};
	const member = await queries.memberOf(deps.db, thread.userId);
	const tell = member
		? sendWith(deps.mail, {
				to: { name: member.name, address: member.email },
				template: 'question-answered',
				...questionAnswered(
					firstName(member.name),
					thread.moduleTitle,
					new URL(`/questions/${threadId}`, deps.origin).href
				)
			})
				.then(() => {})
				.catch((error) => log.error('answer notice not sent', { error }))
		: Promise.resolve();
	return { tell };
}

export interface ThreadListEntry extends queries.ThreadSummary {
	dueAt: Date | null;
	late: boolean;
}

const withDue = (rows: queries.ThreadSummary[], delayDays: number, now: Date): ThreadListEntry[] =>
	rows.map((row) => {
		const dueAt = row.awaitingSince ? addWorkingDays(row.awaitingSince, delayDays) : null;
		return { ...row, dueAt, late: !!dueAt && dueAt < now };
	});

export async function threadsOfMember(db: DbOrTx, userId: string, delayDays: number, now = new Date()) {
	return withDue(await queries.threadsOfMember(db, userId), delayDays, now);
}

export async function threadsForAdmins(
	db: DbOrTx,
	state: 'open' | 'answered' | 'all',
	delayDays: number,
	now = new Date()
) {
	return withDue(await queries.threadsForAdmins(db, state, ADMIN_LIST_MAX), delayDays, now);
}

/** How many threads wait past the promised delay: the awaiting ones (oldest first, bounded), each checked. */
export async function countLate(db: DbOrTx, delayDays: number, now = new Date()): Promise<number> {
	const awaiting = await queries.threadsForAdmins(db, 'open', ADMIN_LIST_MAX);
	return withDue(awaiting, delayDays, now).filter((t) => t.late).length;
}

/** An attachment for a reader of its thread: its object path, name and type. */
export async function attachmentFor(db: DbOrTx, messageId: string, reader: { id: string; isAdmin: boolean }) {
	const attachment = await queries.attachmentOf(db, messageId);
	if (!attachment?.path) throw new NotFoundError('Pièce jointe introuvable.');
	await readableThread(db, attachment.threadId, reader);
	return {
		objectPath: attachment.path,
		name: attachment.name ?? 'piece-jointe',
		type: attachment.type ?? ''
	};
}
