/**
 * One JSON line per event on stdout/stderr, so that any log collector can parse it. Callers pass facts, never
 * secrets: tokens, passwords and message bodies stay out of logs — and this module makes sure of it for what
 * callers cannot see, such as the SQL parameters (people's data, password hashes) inside a database error.
 */
import { setBounded } from '../bounded-map.js';
import { processWide } from '../process-wide.js';

type Fields = Record<string, unknown>;

/** Field names whose values are never written, whoever passes them. */
const SENSITIVE = /pass(word|phrase)?|hash|token|secret|cookie|authorization|signature/i;

/** Drizzle wraps a driver error as "Failed query: <sql>\nparams: <values>": the values are people's data. */
const DRIZZLE_QUERY_ERROR = /^Failed query:/;

function describeError(error: Error): Fields {
	const cause = (error as { cause?: unknown }).cause;
	if (DRIZZLE_QUERY_ERROR.test(error.message)) {
		const driver = cause instanceof Error ? cause : null;
		return {
			name: error.name,
			// The database's own message says what went wrong without quoting the values.
			message: driver?.message ?? 'database query failed',
			code: (driver as { code?: string } | null)?.code,
			stack: driver?.stack?.split('\n').slice(1).join('\n')
		};
	}
	return {
		name: error.name,
		message: error.message,
		stack: error.stack,
		...(cause instanceof Error ? { cause: describeError(cause) } : {})
	};
}

/** Field names are few and come back on every line: each is tested once (bounded, whoever names fields). */
const sensitiveNames = new Map<string, boolean>();
function isSensitive(name: string): boolean {
	let sensitive = sensitiveNames.get(name);
	if (sensitive === undefined) {
		sensitive = SENSITIVE.test(name);
		if (sensitiveNames.size < 1_000) sensitiveNames.set(name, sensitive);
	}
	return sensitive;
}

function clean(value: unknown, depth = 0): unknown {
	if (value instanceof Error) return describeError(value);
	if (depth > 3 || value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map((item) => clean(item, depth + 1));
	const copy: Fields = {};
	for (const key of Object.keys(value))
		copy[key] = isSensitive(key) ? '[redacted]' : clean((value as Fields)[key], depth + 1);
	return copy;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Shared by the server entry and the SvelteKit app, two bundles in one process (see lifecycle.ts): the level set
 * from LOG_LEVEL at start-up holds for both.
 */
const sharedLevel = processWide<number>('log-level');

export function setLogLevel(level: LogLevel): void {
	sharedLevel.set(LOG_LEVELS.indexOf(level));
}

/**
 * The production server writes its stdout lines (debug, info: one a request) once per turn of the event loop, in
 * one write: under load a turn answers several requests, and each write is a system call. Warnings and errors go
 * to stderr at once. Shared through globalThis by the two bundles, so that their lines keep their order; written
 * out on exit too (a kill -9 loses at most one turn's lines). Tests and commands write each line as it comes, where
 * the test runner sees it.
 */
interface Batch {
	lines: string[];
	scheduled: boolean;
}
const batching = processWide<Batch>('log-batch');
const BATCH_MAX_LINES = 500;

export function batchOutputLines(): void {
	if (batching.get()) return;
	const batch: Batch = { lines: [], scheduled: false };
	batching.set(batch);
	process.on('exit', () => flush(batch));
}

function flush(batch: Batch) {
	batch.scheduled = false;
	if (batch.lines.length === 0) return;
	const text = batch.lines.join('\n') + '\n';
	batch.lines.length = 0;
	process.stdout.write(text);
}

function writeOut(line: string) {
	const batch = batching.get();
	if (!batch) {
		console.log(line);
		return;
	}
	batch.lines.push(line);
	if (batch.lines.length >= BATCH_MAX_LINES) flush(batch);
	else if (!batch.scheduled) {
		batch.scheduled = true;
		setImmediate(flush, batch);
	}
}

function write(level: LogLevel, message: string, fields: Fields = {}) {
	if (LOG_LEVELS.indexOf(level) < (sharedLevel.get() ?? 1)) return;
	const entry = { time: new Date().toISOString(), level, message, ...(clean(fields) as Fields) };
	const line = JSON.stringify(entry);
	if (level === 'debug' || level === 'info') writeOut(line);
	else console.error(line);
}

/** How long a repeated event stays quiet after it was written, and how many kinds of event are remembered. */
export const REPEAT_WINDOW_MS = 60_000;
const MAX_REPEATING = 1_000;

/** Per kind of event: when it was last written, and how many times it happened since without being written. */
const repeating = new Map<string, { writtenAt: number; suppressed: number }>();

/**
 * An event that may happen on every request while something stays broken (a stock image's host unreachable, the
 * database down): written once per `key` per minute; the next line says how many were left out in between
 * (`suppressed`), so that the log keeps the count without the flood.
 */
function writeRepeating(
	level: LogLevel,
	key: string,
	message: string,
	fields: Fields = {},
	now = Date.now()
) {
	const seen = repeating.get(key);
	if (seen && now - seen.writtenAt < REPEAT_WINDOW_MS) {
		seen.suppressed++;
		return;
	}
	const suppressed = seen?.suppressed ?? 0;
	// Oldest first out: the map stays bounded whatever keys the failures produce.
	setBounded(repeating, key, { writtenAt: now, suppressed: 0 }, MAX_REPEATING);
	write(level, message, suppressed > 0 ? { ...fields, suppressed } : fields);
}

/**
 * The lines an operator needs whatever LOG_LEVEL hides (the server is up, the server stopped): written at `info`
 * with `lifecycle: true`, past the level's threshold.
 */
function writeLifecycle(message: string, fields: Fields = {}) {
	const entry = {
		time: new Date().toISOString(),
		level: 'info',
		message,
		lifecycle: true,
		...(clean(fields) as Fields)
	};
	writeOut(JSON.stringify(entry));
}

/** One answered request, as the access log writes it (http/request-log.ts). */
export interface RequestLine {
	method: string;
	route: string;
	status: number;
	ms: number;
	id: string;
	aborted: boolean;
}

/**
 * The access log's line, once per request: the very JSON `log.info('request', fields)` writes, built without the
 * copy and the name checks a line of any fields needs (these are few, known, and none is sensitive) — on a cached
 * page, that copy was a tenth of the server's work.
 */
function writeRequest(level: 'debug' | 'info', line: RequestLine) {
	if (LOG_LEVELS.indexOf(level) < (sharedLevel.get() ?? 1)) return;
	writeOut(
		`{"time":"${isoNow()}","level":"${level}","message":"request",` +
			`"method":${asJson(line.method)},"route":${asJson(line.route)},"status":${line.status},` +
			`"ms":${line.ms},"id":${asJson(line.id)}${line.aborted ? ',"aborted":true' : ''}}`
	);
}

/**
 * The time as `toISOString` says it, made once per millisecond (a busy server writes many lines in each), and a
 * `Date` formatted once per second: a proxy answering a photo a millisecond wrote a new one on every line.
 */
let isoAt = -1;
let isoText = '';
let isoSecond = -1;
let isoSecondText = '';
export function isoNow(now = Date.now()): string {
	if (now !== isoAt) {
		isoAt = now;
		const milliseconds = now % 1000;
		const second = now - milliseconds;
		// `YYYY-MM-DDTHH:MM:SS.`, the part that changes once a second.
		if (second !== isoSecond) isoSecondText = new Date((isoSecond = second)).toISOString().slice(0, 20);
		isoText = `${isoSecondText}${milliseconds < 10 ? '00' : milliseconds < 100 ? '0' : ''}${milliseconds}Z`;
	}
	return isoText;
}

/**
 * A string as JSON, as `JSON.stringify` writes it; those that need no escaping (a method, a route id, a request id:
 * nearly every one) are quoted as they are, without the call.
 */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const asJson = (text: string) => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));

export const log = {
	lifecycle: writeLifecycle,
	request: writeRequest,
	debug: (message: string, fields?: Fields) => write('debug', message, fields),
	info: (message: string, fields?: Fields) => write('info', message, fields),
	warn: (message: string, fields?: Fields) => write('warn', message, fields),
	error: (message: string, fields?: Fields) => write('error', message, fields),
	/** A warning that repeats while a cause lasts: once per `key` (say, the message and the image slot) a minute. */
	warnRepeating: (key: string, message: string, fields?: Fields, now?: number) =>
		writeRepeating('warn', key, message, fields, now)
};
