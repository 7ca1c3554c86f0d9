/**
 * The proof file of a learner (issue « Formation, part 1 », point 6): what a DREETS control or a funder's « contrôle
 * de service fait » asks a distance course to show, dated — the sign-ins (when, never from where), the modules
 * completed, the video positions, the quiz attempts with their scores, the positioning's answers, the questions and
 * answers with their times, the satisfaction answers — one CSV each, every row the database holds for the learner,
 * plus the attestation and the certificat de réalisation when they exist. A ZIP any tool opens.
 */
import { toCsv } from '../csv';
import type { DbOrTx } from '../db';
import { NotFoundError } from '../errors';
import { zip, type ZipEntry } from '../zip';
import * as queries from './queries';

const iso = (at: Date) => at.toISOString();

export interface ProofDocuments {
	attestation: Uint8Array | null;
	certificate: Uint8Array | null;
}

/** The CSVs, by file name: what the ZIP holds besides the PDFs (tests count their rows). */
export async function proofTables(db: DbOrTx, userId: string): Promise<Record<string, string>> {
	const member = await queries.memberOf(db, userId);
	if (!member) throw new NotFoundError('Membre introuvable.');
	const [completions, record] = await Promise.all([
		queries.completionsOf(db, userId),
		queries.learnerRecordOf(db, userId)
	]);
	const { signIns, positions, attempts, positioning, messages, surveys: satisfaction } = record;
	return {
		'connexions.csv': toCsv(
			['date et heure (UTC)'],
			signIns.map((s) => [iso(s.at)])
		),
		'modules-termines.csv': toCsv(
			['module', 'durée estimée (minutes)', 'publié', 'terminé le (UTC)'],
			completions.map((c) => [c.title, c.durationMinutes, c.published ? 'oui' : 'non', iso(c.completedAt)])
		),
		'positions-video.csv': toCsv(
			['module', 'position (secondes)', 'enregistrée le (UTC)'],
			positions.map((p) => [p.title, p.seconds, iso(p.updatedAt)])
		),
		'quiz.csv': toCsv(
			['module', 'score (%)', 'bonnes réponses', 'questions', 'réussi', 'date (UTC)'],
			attempts.map((a) => [a.title, a.score, a.correct, a.total, a.passed ? 'oui' : 'non', iso(a.createdAt)])
		),
		'positionnement.csv': toCsv(
			['question', 'réponse(s)', 'répondu le (UTC)'],
			positioning
				? positioning.questions.map((q, i) => [
						q.prompt,
						(positioning.answers[i] ?? []).map((c) => q.choices[c]?.text ?? `choix ${c + 1}`).join(' | '),
						iso(positioning.answeredAt)
					])
				: []
		),
		'questions-reponses.csv': toCsv(
			['fil', 'module', 'auteur', 'date (UTC)', 'message', 'pièce jointe'],
			messages.map((m) => [
				m.threadId,
				m.moduleTitle,
				m.author === 'member' ? 'stagiaire' : 'formateur',
				iso(m.createdAt),
				m.body,
				m.attachmentName ?? ''
			])
		),
		'satisfaction.csv': toCsv(
			['moment', 'passé', 'note 1', 'note 2', 'note 3', 'note 4', 'note 5', 'commentaire', 'date (UTC)'],
			satisfaction.map((s) => [
				s.kind === 'hot' ? 'à chaud' : 'à froid',
				s.skipped ? 'oui' : 'non',
				...Array.from({ length: 5 }, (_, i) => s.ratings?.[i] ?? ''),
				s.comment ?? '',
				iso(s.answeredAt)
			])
		)
	};
}

export async function proofArchive(db: DbOrTx, userId: string, documents: ProofDocuments): Promise<Buffer> {
	const tables = await proofTables(db, userId);
	const entries: ZipEntry[] = Object.entries(tables).map(([name, data]) => ({ name, data }));
	if (documents.attestation)
		entries.push({ name: 'attestation-fin-de-formation.pdf', data: documents.attestation });
	if (documents.certificate)
		entries.push({ name: 'certificat-de-realisation.pdf', data: documents.certificate });
	return zip(entries);
}
