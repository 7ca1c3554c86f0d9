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
export { leadNotification, leadAcknowledgement, type LeadForMail } from './templates/leads';
export { agencySender, businessSender, maconDemoSender, type MailSender } from './sender';
export {
	candidatureApproval,
	candidatureConfirmation,
	candidatureNotification,
	candidatureRejection,
	candidatureRows,
	type CandidatureForMail
} from './templates/candidatures';
export {
	accountDeleted,
	emailChangeConfirmation,
	emailChanged,
	memberWelcome,
	passwordReset
} from './templates/members';
export { MAIL_PREVIEWS, mailPreview, type MailPreview } from './templates/catalog';
export type { MailTheme } from './theme';
