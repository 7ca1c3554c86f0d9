/** What the candidatures domain is given (index.ts binds it to the application's services; tests bring their own). */
import type { Db } from '../db';
import type { MailDeps } from '../mail';
import type { Payments } from '../payments';

export interface CandidatureDeps {
	db: Db;
	mail: MailDeps;
	/** Who is told of new candidatures (ADMIN_EMAIL, else the sender address). */
	adminEmail: string;
	signingSecret: string;
	/** How soon after a form was shown a submission is a robot's (config.ts `waits`). */
	formMinFillMs?: number;
	origin: URL;
	payments: Payments | null;
}
