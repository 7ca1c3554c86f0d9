/**
 * "Télécharger mes données" (RGPD art. 15 and 20): everything the site holds about one account, as one JSON
 * document, read in one read-only snapshot so that its parts agree with each other. Each field is described in
 * docs/personal-data.md; a field added here is added there.
 *
 * Left out on purpose: what would hand someone else's data or a secret to the file's reader — the password's
 * hash, session and link tokens (only their hashes are stored, and they would identify a session), the admin who
 * decided on a candidature, Stripe's checkout links, spam scoring.
 */
import type { Db } from '../db';
import { NotFoundError } from '../errors';
import { personalRowsOf } from './queries';

/** Bumped when a field changes meaning or leaves; new fields keep the version. */
export const PERSONAL_DATA_FORMAT = 1;

const iso = (date: Date | null) => date?.toISOString() ?? null;
/** The module a row is about: its address and its title. */
const moduleOf = (row: { slug: string; title: string }) => ({ module: row.slug, title: row.title });

export async function personalDataOf(db: Db, userId: string, now = new Date()) {
	const rows = await personalRowsOf(db, userId, now);
	if (!rows) throw new NotFoundError('Compte introuvable.');
	const { account } = rows;
	const enabledAt = rows.factor[0]?.confirmedAt ?? null;
	return {
		format: PERSONAL_DATA_FORMAT,
		generatedAt: now.toISOString(),
		account: {
			id: account.id,
			email: account.email,
			name: account.name,
			role: account.isAdmin ? 'admin' : 'member',
			createdAt: iso(account.createdAt),
			lastSignInAt: iso(account.lastSignInAt)
		},
		// That a second factor exists and how many recovery codes are left; never the key or a code.
		twoFactor: {
			enabled: enabledAt !== null,
			enabledAt: iso(enabledAt),
			recoveryCodesLeft: enabledAt ? rows.codes.filter((c) => c.usedAt === null).length : 0
		},
		pendingEmailChanges: rows.changes.map((c) => ({
			newEmail: c.newEmail,
			requestedAt: iso(c.createdAt),
			expiresAt: iso(c.expiresAt)
		})),
		candidatures: rows.theirCandidatures.map((c) => ({
			id: c.id,
			status: c.status,
			submittedAt: iso(c.createdAt),
			consentAt: iso(c.consentAt),
			firstName: c.firstName,
			lastName: c.lastName,
			email: c.email,
			phone: c.phone,
			postalCode: c.postalCode,
			city: c.city,
			trade: c.trade,
			tradeOther: c.tradeOther,
			company: c.company,
			siret: c.siret,
			yearsExperience: c.yearsExperience,
			teamSize: c.teamSize,
			currentSite: c.currentSite,
			goals: c.goals,
			presence: c.presence,
			hoursPerWeek: c.hoursPerWeek,
			motivation: c.motivation,
			decidedAt: iso(c.decidedAt),
			rejectionReason: c.rejectionReason,
			// Where it was sent from, and what brought the visitor that day (docs/personal-data.md).
			origin: {
				page: c.sourcePage,
				referrerHost: c.referrerHost,
				utmSource: c.utmSource,
				utmMedium: c.utmMedium,
				utmCampaign: c.utmCampaign
			}
		})),
		memberships: rows.theirMemberships.map((m) => ({
			status: m.status,
			currentPeriodEnd: iso(m.currentPeriodEnd),
			startedAt: iso(m.createdAt),
			lastChangedAt: iso(m.stateAt),
			stripeCustomerId: m.stripeCustomerId,
			stripeSubscriptionId: m.stripeSubscriptionId
		})),
		courseProgress: rows.progress.map((p) => ({
			...moduleOf(p),
			completedAt: iso(p.completedAt)
		})),
		/** Where they stopped in each lesson's video, to resume there. */
		videoPositions: rows.positions.map((p) => ({
			...moduleOf(p),
			seconds: p.seconds,
			savedAt: iso(p.updatedAt)
		})),
		/** Each quiz attempt: the choices ticked (their order in each question), the score, whether it passed. */
		quizAttempts: rows.attempts.map((a) => ({
			...moduleOf(a),
			score: a.score,
			correct: a.correct,
			total: a.total,
			passed: a.passed,
			answers: a.answers,
			sentAt: iso(a.createdAt)
		})),
		/** « Reprenez là où vous en étiez »: when the last reminder went, and whether they asked for no more. */
		courseReminders: {
			lastSentAt: iso(rows.reminder?.lastSentAt ?? null),
			unsubscribedAt: iso(rows.reminder?.unsubscribedAt ?? null)
		},
		/** When they signed in (never from where): the training's proof of attendance. */
		signIns: rows.signIns.map((s) => iso(s.at)),
		/** Their answers to the positioning at entry, with the questions as asked. */
		positioning: rows.positioning && {
			answeredAt: iso(rows.positioning.answeredAt),
			questions: rows.positioning.questions.map((q, i) => ({
				prompt: q.prompt,
				chosen: (rows.positioning!.answers[i] ?? []).map((c) => q.choices[c]?.text ?? null)
			}))
		},
		/** Their questions to the trainer and the answers, each message with who wrote it and when. */
		questions: rows.messages.map((m) => ({
			thread: m.threadId,
			module: m.moduleTitle,
			from: m.author,
			text: m.body,
			attachment: m.attachmentName,
			at: iso(m.createdAt)
		})),
		/** Their answers to the satisfaction survey, at the end (hot) and some weeks later (cold). */
		satisfaction: rows.surveys.map((s) => ({
			moment: s.kind,
			skipped: s.skipped,
			questions: s.questions,
			ratings: s.ratings,
			comment: s.comment,
			answeredAt: iso(s.answeredAt)
		})),
		/** Their attestation de fin de formation as issued (its file is downloaded from /bilan). */
		attestations: rows.theirAttestations.map((a) => ({
			code: a.code,
			name: a.memberName,
			programme: a.programme,
			firstCompletedAt: iso(a.firstCompletedAt),
			lastCompletedAt: iso(a.lastCompletedAt),
			totalMinutes: a.totalMinutes,
			modules: a.modules,
			issuedAt: iso(a.issuedAt),
			revokedAt: iso(a.revokedAt),
			revokedReason: a.revokedReason
		})),
		emails: rows.mails.map((m) => ({
			to: m.to,
			subject: m.subject,
			kind: m.template,
			status: m.status,
			createdAt: iso(m.createdAt),
			sentAt: iso(m.sentAt)
		})),
		sessions: rows.theirSessions.map((s) => ({
			openedAt: iso(s.createdAt),
			lastSeenAt: iso(s.lastSeenAt),
			expiresAt: iso(s.expiresAt),
			userAgent: s.userAgent,
			network: s.network
		}))
	};
}

export type PersonalData = Awaited<ReturnType<typeof personalDataOf>>;

/** `mes-donnees-atelier-2026-11-25.json`: the brand and the day, nothing the reader did not choose. */
export const personalDataFileName = (brand: string, now = new Date()) =>
	`mes-donnees-${brand.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${now.toISOString().slice(0, 10)}.json`;
