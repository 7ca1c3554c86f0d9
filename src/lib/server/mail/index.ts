/** E-mail: one transport for the process, `send` that logs every message, and the templates. */
import path from 'node:path';
import { config } from '../config';
import { db } from '../db';
import { lazy } from '../lazy';
import { onShutdown } from '../lifecycle';
import { send as sendWith, type Mail, type MailDeps, type SendResult } from './send';
import { outboxTransport, smtpTransport, type Transport } from './transport';

export const transport: Transport = lazy(() => {
	const t = config.smtpUrl
		? smtpTransport(config.smtpUrl)
		: outboxTransport(path.join(config.dataDir, 'outbox'));
	onShutdown(() => t.close());
	return t;
});

export const mailDeps = (): MailDeps => ({ db, transport, from: config.mailFrom });

/** Sends with the application's transport and database. */
export const send = (mail: Mail): Promise<SendResult> => sendWith(mailDeps(), mail);

export {
	sendWith,
	smtpTransport,
	outboxTransport,
	type Mail,
	type MailDeps,
	type SendResult,
	type Transport
};
// One file per e-mail, named after it (templates/), and what two of them share.
export { leadNotification } from './templates/lead-notification';
export { leadAcknowledgement } from './templates/lead-acknowledgement';
export type { LeadForMail } from './templates/lead-for-mail';
export { agencySender, businessSender, demoSender, type MailSender } from './sender';
export { candidatureApproval } from './templates/candidature-approval';
export { candidatureConfirmation } from './templates/candidature-confirmation';
export { candidatureNotification } from './templates/candidature-notification';
export { candidatureRejection } from './templates/candidature-rejection';
export { candidatureRows, type CandidatureForMail } from './templates/candidature-answers';
export { accountDeleted } from './templates/account-deleted';
export { attestationIssued } from './templates/attestation-issued';
export { backupFailed } from './templates/backup-failed';
export { courseReminder } from './templates/course-reminder';
export { coldSurvey, questionAnswered, questionAsked } from './templates/training';
export { emailChangeConfirmation } from './templates/email-change-confirmation';
export { emailChanged } from './templates/email-changed';
export { memberWelcome } from './templates/member-welcome';
export { passwordReset } from './templates/password-reset';
export * as securityNotices from './templates/security-notices';
export type { Circumstances } from './templates/security-notices';
export { MAIL_PREVIEWS, mailPreview, type MailPreview } from './templates/catalog';
export type { MailTheme } from './theme';
