/**
 * A server of a test file's own with a real SMTP server beside it (smtp-server): started before the file's tests,
 * stopped after them, and a way to wait for the e-mail a test expects.
 */
import { expect, test } from '@playwright/test';
import { startSmtp, type ReceivedMail, type RunningSmtp } from '../../helpers/smtp';
import { startIsolatedServer, type RunningServer } from './server';

export interface ServerWithMailbox {
	server: RunningServer;
	smtp: RunningSmtp;
	base: string;
	/** The first e-mail (after the `from`-th) that `match` accepts, waiting for it to arrive. */
	mailWhere(match: (mail: ReceivedMail) => boolean, from?: number): Promise<ReceivedMail>;
}

/** Call at the top of a file: the returned object is filled in before its first test runs. */
export function useServerWithMailbox(env: Record<string, string> = {}): ServerWithMailbox {
	const shared = {
		async mailWhere(match: (mail: ReceivedMail) => boolean, from = 0) {
			await expect.poll(() => shared.smtp.received.slice(from).some(match), { timeout: 15_000 }).toBe(true);
			return shared.smtp.received.slice(from).find(match)!;
		}
	} as ServerWithMailbox;
	test.beforeAll(async () => {
		shared.smtp = await startSmtp();
		shared.server = await startIsolatedServer({
			SMTP_URL: shared.smtp.url,
			ADMIN_EMAIL: 'patron@atelier.test',
			...env
		});
		shared.base = shared.server.url;
	});
	test.afterAll(async () => {
		expect(await shared.server?.stop()).toBe(0);
		await shared.smtp?.close();
	});
	return shared;
}
