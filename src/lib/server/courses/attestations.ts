/**
 * Attestations de fin de formation (issue « Learning, part 3 », point 3). Issued once per member and course, when
 * every published module is completed: the PDF is made then and kept in the private bucket with its SHA-256, so that
 * every download is the very file the public page knows, and an altered copy with a genuine code is caught. The code
 * is 130 random bits: the page at `/attestation/{code}` needs no account, and says only the name, programme and date.
 */
import { createHash, randomBytes } from 'node:crypto';
import { changesOf, recordAudit, type Actor } from '../audit';
import type { Db, DbOrTx } from '../db';
import { ConflictError, NotFoundError } from '../errors';
import type { Storage } from '../storage';
import { attestationPdf } from './pdf-documents';
import * as queries from './queries';
import { signaturePng } from './signature';
import type { ReaderCache } from './reader-cache';
import { courseSettingsOf, progressOf } from './service';

/** `attestations/<code>.pdf` in the private bucket. */
const objectPathOf = (code: string) => `attestations/${code}.pdf`;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 130 random bits as 26 base32 characters (lower case: read aloud and typed without ambiguity of case). */
export function newAttestationCode(): string {
	const bytes = randomBytes(17);
	let bits = 0;
	let value = 0;
	let code = '';
	for (const byte of bytes) {
		value = (value << 8) | byte;
		bits += 8;
		while (bits >= 5 && code.length < 26) {
			code += BASE32[(value >>> (bits - 5)) & 31];
			bits -= 5;
		}
	}
	return code;
}

/** What the address of a page may hold as a code: anything else is not looked up. */
export const ATTESTATION_CODE = /^[a-z2-7]{26}$/;

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface AttestationDeps {
	db: Db;
	readers: ReaderCache;
	storage: Storage;
	origin: URL;
}

/** Where a member stands: their attestation when issued, or whether it can be (every published module done). */
export async function attestationStateOf(deps: Pick<AttestationDeps, 'db' | 'readers'>, userId: string) {
	const issued = await queries.attestationOfUser(deps.db, userId);
	if (issued) return { issued, available: !issued.revokedAt, preparing: false };
	const [progress, settings] = await Promise.all([
		progressOf(deps.db, deps.readers, userId),
		courseSettingsOf(deps.db, deps.readers)
	]);
	// The attestation states the objectives (L6353-1): none is issued before the admin has written them.
	const preparing = !settings.objectives.trim();
	return {
		issued: null,
		available: !preparing && progress.total > 0 && progress.completed === progress.total,
		preparing
	};
}

export const verifyUrlOf = (origin: URL, code: string) => new URL(`/attestation/${code}`, origin).href;

/**
 * The member's attestation, issued now if it was not: every published module must be completed. Of two first
 * downloads at once, one row is kept (one code per member and course) and the other's file is deleted; `created`
 * says whether this call issued it (the e-mail is sent once).
 */
export async function issueAttestation(
	deps: AttestationDeps,
	member: { id: string; name: string }
): Promise<{ attestation: queries.Attestation; created: boolean }> {
	const existing = await queries.attestationOfUser(deps.db, member.id);
	if (existing) return { attestation: existing, created: false };
	const [progress, settings, completions, scores, catalogue] = await Promise.all([
		progressOf(deps.db, deps.readers, member.id),
		courseSettingsOf(deps.db, deps.readers),
		queries.completionsOf(deps.db, member.id),
		queries.bestQuizScoresOf(deps.db, member.id),
		deps.readers.catalogueOf(() => queries.catalogueModules(deps.db))
	]);
	if (!progress.total || progress.completed < progress.total)
		throw new ConflictError(
			'Votre attestation sera disponible une fois tous les modules du programme terminés.'
		);
	if (!settings.objectives.trim())
		throw new ConflictError(
			'Votre attestation est en préparation : l’organisme de formation complète le programme, elle sera disponible sous peu.'
		);
	const completedAt = new Map(completions.map((c) => [c.moduleId, c.completedAt]));
	const best = new Map(scores.map((s) => [s.moduleId, s]));
	const quizOf = new Map(catalogue.map((m) => [m.id, m.quiz]));
	const modules = progress.modules.map((m) => {
		const quiz = quizOf.get(m.id);
		const score = best.get(m.id);
		return {
			title: m.title,
			completedAt: completedAt.get(m.id)!,
			// The assessment of the module, as the law asks the attestation to state it: its quiz's best score.
			assessment:
				quiz && score ? { best: score.best, attempts: score.attempts, passPercent: quiz.passPercent } : null
		};
	});
	const dates = modules.map((m) => m.completedAt.getTime());
	const signature = await signaturePng(deps);
	const code = newAttestationCode();
	const issuedAt = new Date();
	const content = {
		memberName: member.name,
		programme: settings.title,
		objectives: settings.objectives,
		firstCompletedAt: new Date(Math.min(...dates)),
		lastCompletedAt: new Date(Math.max(...dates)),
		totalMinutes: progress.modules.reduce((sum, m) => sum + m.durationMinutes, 0),
		modules,
		code,
		verifyUrl: verifyUrlOf(deps.origin, code),
		issuedAt,
		signature
	};
	const pdf = await attestationPdf(content);
	const objectPath = objectPathOf(code);
	await deps.storage.put(objectPath, Buffer.from(pdf), {
		contentType: 'application/pdf',
		cacheControl: 'private, no-store'
	});
	const inserted = await queries.insertAttestation(deps.db, {
		code,
		userId: member.id,
		memberName: content.memberName,
		programme: content.programme,
		firstCompletedAt: content.firstCompletedAt,
		lastCompletedAt: content.lastCompletedAt,
		totalMinutes: content.totalMinutes,
		modules: modules.map((m) => ({ title: m.title, completedAt: m.completedAt.toISOString() })),
		sha256: sha256Of(pdf),
		objectPath,
		issuedAt
	});
	if (inserted) return { attestation: inserted, created: true };
	// Issued at the same moment by another request: theirs is the one.
	await deps.storage.delete(objectPath);
	const kept = await queries.attestationOfUser(deps.db, member.id);
	if (!kept) throw new ConflictError('L’attestation n’a pas pu être délivrée : réessayez.');
	return { attestation: kept, created: false };
}

/** The stored PDF of an attestation, as issued. */
export async function attestationFile(storage: Storage, attestation: queries.Attestation) {
	if (!attestation.objectPath) throw new NotFoundError('Attestation introuvable.');
	const stored = await storage.read(attestation.objectPath);
	if (!stored) throw new NotFoundError('Le fichier de l’attestation est introuvable : contactez-nous.');
	return stored;
}

/** What the public page says of a code: nothing of the member beyond the name, the programme and the date. */
export interface AttestationCheck {
	code: string;
	state: 'valid' | 'revoked' | 'withdrawn';
	memberName: string | null;
	programme: string | null;
	completedOn: Date | null;
	issuedAt: Date;
	revokedReason: string | null;
	sha256: string;
}

export async function checkAttestation(db: DbOrTx, code: string): Promise<AttestationCheck> {
	const found = ATTESTATION_CODE.test(code) ? await queries.attestationByCode(db, code) : undefined;
	if (!found) throw new NotFoundError('Aucune attestation ne porte ce code.');
	// An account deleted: the attestation no longer stands, and nothing of the person is said.
	if (!found.userId)
		return {
			code,
			state: 'withdrawn',
			memberName: null,
			programme: null,
			completedOn: null,
			issuedAt: found.issuedAt,
			revokedReason: null,
			sha256: found.sha256
		};
	return {
		code,
		state: found.revokedAt ? 'revoked' : 'valid',
		memberName: found.memberName,
		programme: found.programme,
		completedOn: found.lastCompletedAt,
		issuedAt: found.issuedAt,
		revokedReason: found.revokedReason,
		sha256: found.sha256
	};
}

/** Whether `bytes` are the very file issued under `code` (the form that uploads it, without JavaScript). */
export async function isIssuedFile(db: DbOrTx, code: string, bytes: Uint8Array): Promise<boolean> {
	const check = await checkAttestation(db, code);
	return sha256Of(bytes) === check.sha256;
}

export const listAttestations = (db: DbOrTx) => queries.allAttestations(db);

/** An admin revokes an attestation (the route asked for a recent re-authentication); the trail keeps why. */
export async function revokeAttestation(db: Db, id: string, reason: string, admin: Actor): Promise<void> {
	await db.transaction(async (tx) => {
		const before = await queries.attestationById(tx, id);
		if (!before) throw new NotFoundError('Attestation introuvable.');
		const after = await queries.revokeAttestation(tx, id, reason);
		if (!after) throw new ConflictError('Cette attestation est déjà révoquée.');
		await recordAudit(tx, admin, {
			kind: 'attestation.revoked',
			subjectType: 'attestation',
			subjectId: id,
			changes: changesOf(before, after, ['revokedAt', 'revokedReason'])
		});
	});
}

/**
 * An account being deleted (in its transaction): its attestation is withdrawn and what it printed of the person
 * blanked; the files to delete once the transaction has committed are returned.
 */
export const forgetAttestationsOf = (tx: DbOrTx, userId: string) => queries.forgetAttestationsOf(tx, userId);
