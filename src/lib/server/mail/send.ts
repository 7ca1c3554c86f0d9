/**
 * Sends one e-mail and records it in the `emails` table, sent or failed. Never throws to its caller: a failed
 * notification is a fact to record and show, not a reason to lose what triggered it.
 */
import type { DbOrTx } from '../db';
import { log } from '../log';
import { recordEmail } from '../metrics';
import { insertEmailRecord } from './queries';
import type { MailAddress, Transport } from './transport';

export interface Mail {
	to: MailAddress;
	subject: string;
	/** The template's name, kept in the log of e-mails. */
	template: string;
	html: string;
	text: string;
	replyTo?: MailAddress;
	/**
	 * An acknowledgement of what someone sent (RFC 3834 "auto-replied"): their mail server's vacation responder
	 * and filters then know not to answer it, so that two robots never write to each other forever.
	 */
	autoReply?: boolean;
	/** Headers of its own: a reminder's List-Unsubscribe (RFC 2369) and one-click List-Unsubscribe-Post (RFC 8058). */
	headers?: Record<string, string>;
}

export interface MailDeps {
	db: DbOrTx;
	transport: Transport;
	from: string;
}

export interface SendResult {
	sent: boolean;
	error: string | null;
}

/** Error text safe to store and show: no credentials from an smtp:// URL, bounded length. */
function describe(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.replace(/\/\/[^@\s/]+@/g, '//***@').slice(0, 500);
}

export async function send(deps: MailDeps, mail: Mail): Promise<SendResult> {
	let result: SendResult;
	try {
		await deps.transport.deliver({
			from: deps.from,
			to: mail.to,
			replyTo: mail.replyTo,
			subject: mail.subject,
			html: mail.html,
			text: mail.text,
			...(mail.autoReply || mail.headers
				? {
						headers: {
							...mail.headers,
							...(mail.autoReply ? { 'Auto-Submitted': 'auto-replied' } : {})
						}
					}
				: {})
		});
		result = { sent: true, error: null };
		recordEmail('sent');
	} catch (error) {
		result = { sent: false, error: describe(error) };
		recordEmail('failed');
		log.warn('e-mail not sent', { template: mail.template, error: result.error });
	}
	try {
		await insertEmailRecord(deps.db, {
			to: typeof mail.to === 'string' ? mail.to : mail.to.address,
			subject: mail.subject,
			template: mail.template,
			error: result.error,
			sentAt: result.sent ? new Date() : null
		});
	} catch (error) {
		log.error('e-mail log not written', { template: mail.template, error });
	}
	return result;
}
