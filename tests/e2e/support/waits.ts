/**
 * The waits of the anti-abuse rules in the servers the browser tests start: a test build reads them
 * (src/lib/server/config.ts `abuseWaits`; a real build never does), so that each rule is proved without waiting its
 * whole length — the quiz's 30 s between attempts, a form's 3 s before a submission counts as a person's. Long
 * enough that a loaded 2-core machine still sends a robot's submission, or a second attempt, inside them.
 */
export const TEST_WAITS = { quizRetrySeconds: 10, formMinFillMs: 2_000 } as const;

/** What playwright.config.ts sets for every server a test starts. */
export const TEST_WAITS_ENV = {
	ATELIER_TEST_QUIZ_RETRY_SECONDS: String(TEST_WAITS.quizRetrySeconds),
	ATELIER_TEST_FORM_MIN_FILL_MS: String(TEST_WAITS.formMinFillMs)
};
