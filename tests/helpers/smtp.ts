/** A real SMTP server on loopback (smtp-server) that keeps and parses what it receives (postal-mime). */
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
	envelopeTo: string[];
	parsed: Email;
}

export interface RunningSmtp {
	url: string;
	port: number;
	received: ReceivedMail[];
	/** Resolves once `count` messages have arrived in all. */
	waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
	close(): Promise<void>;
}

export async function startSmtp(port = 0): Promise<RunningSmtp> {
	const received: ReceivedMail[] = [];
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		onData(stream, session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (c: Buffer) => chunks.push(c));
			stream.on('end', async () => {
				const parsed = await PostalMime.parse(Buffer.concat(chunks));
				received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), parsed });
				callback();
			});
		}
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	const actual = (server.server.address() as { port: number }).port;
	return {
		url: `smtp://127.0.0.1:${actual}`,
		port: actual,
		received,
		waitFor: async (count, timeoutMs = 5000) => {
			const deadline = Date.now() + timeoutMs;
			while (received.length < count) {
				if (Date.now() > deadline) throw new Error(`expected ${count} e-mails, got ${received.length}`);
				await new Promise((r) => setTimeout(r, 20));
			}
			return received;
		},
		close: () => new Promise((resolve) => server.close(() => resolve()))
	};
}
