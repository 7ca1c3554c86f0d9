/** Where e-mails go: an SMTP server (SMTP_URL), or by default `.eml` files in DATA_DIR/outbox/. */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** An address header's value, never a string put together from parts. */
export interface MailAddress {
	name?: string;
	address: string;
}

export interface OutgoingMail {
	/** MAIL_FROM, from configuration. */
	from: string;
	to: MailAddress;
	replyTo?: MailAddress;
	subject: string;
	html: string;
	text: string;
}

export interface Transport {
	deliver(mail: OutgoingMail): Promise<void>;
	close(): void;
}

export const SMTP_TIMEOUTS = { connectionMs: 5_000, greetingMs: 5_000, socketMs: 10_000 } as const;

export function smtpTransport(url: string): Transport {
	const transporter = nodemailer.createTransport({
		url,
		// A server that accepts and never answers must not hold a send for long; requests do not wait for
		// e-mail (leads are notified in the background), but shutdown and the admin's "resend" do.
		connectionTimeout: SMTP_TIMEOUTS.connectionMs,
		greetingTimeout: SMTP_TIMEOUTS.greetingMs,
		socketTimeout: SMTP_TIMEOUTS.socketMs
	});
	return {
		deliver: async (mail) => {
			await transporter.sendMail(mail);
		},
		close: () => transporter.close()
	};
}

export function outboxTransport(dir: string): Transport {
	const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
	return {
		deliver: async (mail) => {
			const info = await composer.sendMail(mail);
			await mkdir(dir, { recursive: true });
			const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
			await writeFile(path.join(dir, name), info.message as Buffer, { mode: 0o600 });
		},
		close: () => composer.close()
	};
}
