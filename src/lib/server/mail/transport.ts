/** Where e-mails go: an SMTP server (SMTP_URL), or by default `.eml` files in DATA_DIR/outbox/. */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';

/**
 * An address as a structured value: nodemailer encodes the name itself, so a name holding commas, quotes,
 * angle brackets or addresses can never add a recipient. Never build "Name <address>" strings from input.
 */
export type MailAddress = string | { name: string; address: string };

export interface OutgoingMail {
	from: string;
	to: MailAddress;
	replyTo?: MailAddress;
	subject: string;
	html: string;
	text: string;
	/** nodemailer's extra headers (Auto-Submitted). */
	headers?: Record<string, string>;
}

export interface Transport {
	deliver(mail: OutgoingMail): Promise<void>;
	close(): void;
}

export function smtpTransport(url: string): Transport {
	const transporter = nodemailer.createTransport({
		url,
		// A down, silent or slow server gives up within seconds; sends run after the answer anyway (the lead is
		// already stored), but a stuck one must not pile up.
		connectionTimeout: 5_000,
		greetingTimeout: 5_000,
		socketTimeout: 10_000
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
			await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
			const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
			await writeFile(path.join(dir, name), info.message as Buffer, { mode: PRIVATE_FILE_MODE });
		},
		close: () => composer.close()
	};
}
