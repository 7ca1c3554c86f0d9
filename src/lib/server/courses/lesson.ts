/**
 * A module's page for a member: its HTML (rendered once per version), its neighbours, its quiz and media, and
 * the reader's progress figures — composed from progress.ts, quizzes.ts and media.ts.
 */
import { renderMarkdown } from '$lib/markdown';
import type { DbOrTx } from '../db';
import { NotFoundError } from '../errors';
import * as queries from './queries';
import type { CatalogueModule, ReaderCache } from './reader-cache';
import { setBounded } from '../../bounded-map.js';
import { mediaOf } from './media';
import { assertPositioned, blockerOf, firstUnfinished, neighbour, percentOf, readerView } from './progress';
import { quizPageOf } from './quizzes';
import { courseFilePathOf } from './files';
import { log } from '../log';
import type { Storage } from '../storage';
import { transcriptOf, type TranscriptParagraph } from './transcript';

/**
 * A module's HTML, rendered once per version: a 3 000-word module takes milliseconds to render, and every member
 * reads the same bytes. Keyed by id and last update, as the catalogue gives them: each instance renders a new
 * version once, as soon as its catalogue has it (the edit's NOTIFY drops the old one); the Markdown is read from the
 * database only on a miss. The oldest entries go first past a few hundred.
 */
const rendered = new Map<string, string>();
const RENDERED_MAX = 200;
const renderedKey = (id: string, updatedAt: Date) => `${id}:${updatedAt.getTime()}`;

async function moduleHtml(db: DbOrTx, module: { id: string; updatedAt: Date }): Promise<string> {
	const cached = rendered.get(renderedKey(module.id, module.updatedAt));
	if (cached !== undefined) return cached;
	const source = await queries.moduleContent(db, module.id);
	if (!source) throw new NotFoundError('Module introuvable.');
	// Keyed by the version read, which is the newer one if the module changed in between.
	const html = renderMarkdown(source.content);
	setBounded(rendered, renderedKey(module.id, source.updatedAt), html, RENDERED_MAX);
	return html;
}

/** Transcripts by captions value: a file is never rewritten under its name (a new upload is a new name). */
const transcripts = new Map<string, TranscriptParagraph[]>();
const TRANSCRIPTS_MAX = 100;
/** Captions are at most 2 MB (files.ts); a file grown past that in the bucket is not read whole. */
const CAPTIONS_READ_MAX = 2 * 1024 * 1024;

/**
 * The transcript under a lesson's video, from its captions; null when it has none, or they cannot be read now (the
 * lesson shows without it, and the next view tries again).
 */
async function transcriptFor(
	storage: Storage | null,
	captions: string | null
): Promise<TranscriptParagraph[] | null> {
	const objectPath = captions ? courseFilePathOf(captions) : null;
	if (!storage || !objectPath) return null;
	const kept = transcripts.get(objectPath);
	if (kept) return kept;
	try {
		const object = await storage.read(objectPath);
		if (!object) return null;
		const chunks: Buffer[] = [];
		let size = 0;
		for await (const chunk of object.body as AsyncIterable<Buffer>) {
			size += chunk.length;
			if (size > CAPTIONS_READ_MAX) {
				object.body.destroy();
				return null;
			}
			chunks.push(chunk);
		}
		const transcript = transcriptOf(Buffer.concat(chunks).toString('utf8'));
		setBounded(transcripts, objectPath, transcript, TRANSCRIPTS_MAX);
		return transcript;
	} catch (error) {
		log.warnRepeating(`transcript:${objectPath}`, 'lesson captions unreadable: no transcript', {
			reason: error instanceof Error ? error.message : String(error)
		});
		return null;
	}
}

/**
 * A module page: the module, whether the reader completed it, its neighbours among the published modules, and the
 * reader's progress figures with the first other module left to do. An unpublished module is not found, except for admins, who see a preview without
 * neighbours. No query when the reader cache holds the reader's view and the module's HTML is rendered.
 */
export async function modulePage(
	db: DbOrTx,
	readers: ReaderCache,
	slug: string,
	reader: { id: string; isAdmin: boolean },
	storage: Storage | null = null
) {
	const view = await readerView(db, readers, reader.id);
	const { catalogue, published, completed } = view;
	const module = catalogue.find((m) => m.slug === slug);
	if (!module || (!module.published && !reader.isAdmin)) throw new NotFoundError('Module introuvable.');
	assertPositioned(view, reader);
	const at = published.indexOf(module);
	const done = published.filter((m) => completed.has(m.id)).length;
	const unfinished = published.find((m) => !completed.has(m.id) && m.id !== module.id);
	// Closed by the chosen order: its title, what it opens after and where to go on, nothing of its lesson.
	const after = blockerOf(view, module, reader);
	const blockedBy = after ? { after, resume: firstUnfinished(view) ?? after } : null;
	/** A neighbour as the pager shows it: closed ones say what they open after, and are no link. */
	const pagerEntry = (other: CatalogueModule) => ({
		...neighbour(other),
		opensAfter: blockerOf(view, other, reader)?.title ?? null
	});
	return {
		module,
		blockedBy,
		media: blockedBy ? null : await mediaOf(db, module, reader.id),
		transcript: blockedBy || !module.video ? null : await transcriptFor(storage, module.captions),
		html: blockedBy ? null : await moduleHtml(db, module),
		quiz: blockedBy || !module.quiz ? null : await quizPageOf(db, module.id, module.quiz, reader.id),
		completed: completed.has(module.id),
		previous: at > 0 ? pagerEntry(published[at - 1]!) : null,
		next: at >= 0 && at < published.length - 1 ? pagerEntry(published[at + 1]!) : null,
		progress: {
			completed: done,
			total: published.length,
			percent: percentOf(done, published.length),
			/** The first other module not done yet: where to go once this one is; null when none is left. */
			unfinished: unfinished ? neighbour(unfinished) : null
		}
	};
}
