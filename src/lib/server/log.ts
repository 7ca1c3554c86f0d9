/**
 * One JSON line per event on stdout/stderr, so that any log collector can parse it. Callers pass facts, never
 * secrets; and because an error passed along can carry what a visitor typed (Drizzle's query errors hold the
 * SQL text and its parameters: a password hash, an e-mail, a message), every entry is redacted here, once:
 * known sensitive keys are masked, query errors lose their query and parameters, e-mail addresses are masked.
 */
type Fields = Record<string, unknown>;

export const REDACTED = '[redacted]';

/** Keys whose values never reach a log, at any depth. */
const SENSITIVE_KEY =
	/pass(word)?|secret|token|cookie|authorization|hash|^(params|parameters|query|email|e-mail|phone|body)$/i;
const EMAIL = /[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+\.[a-z]{2,}/gi;
const MAX_DEPTH = 4;

const maskText = (text: string) => text.replace(EMAIL, '[e-mail]');

/** A Drizzle query error (DrizzleQueryError): its message is "Failed query: <sql>\nparams: <values>". */
const isQueryError = (error: Error) => 'params' in error || 'query' in error;

function serializeError(error: Error, depth: number): Fields {
	const message = isQueryError(error)
		? 'Failed query (query text and parameters not logged)'
		: maskText(error.message);
	const out: Fields = { name: error.name, message };
	const code = (error as { code?: unknown }).code;
	if (typeof code === 'string' || typeof code === 'number') out.code = code;
	// The stack's first line repeats the message: keep only the frames.
	const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line));
	if (frames?.length) out.stack = `${error.name}: ${message}\n${frames.join('\n')}`;
	if (error.cause !== undefined && depth < MAX_DEPTH) out.cause = redact(error.cause, depth + 1);
	return out;
}

/** A copy of `value` fit for a log line. */
export function redact(value: unknown, depth = 0): unknown {
	if (typeof value === 'string') return maskText(value);
	if (value === null || typeof value !== 'object') return value;
	if (depth > MAX_DEPTH) return '[…]';
	if (value instanceof Error) return serializeError(value, depth);
	if (value instanceof Date) return value.toISOString();
	if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
	const out: Fields = {};
	for (const [key, item] of Object.entries(value)) {
		out[key] = SENSITIVE_KEY.test(key) ? REDACTED : redact(item, depth + 1);
	}
	return out;
}

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields = {}) {
	const entry = { time: new Date().toISOString(), level, message, ...(redact(fields) as Fields) };
	const line = JSON.stringify(entry);
	if (level === 'info') console.log(line);
	else console.error(line);
}

export const log = {
	info: (message: string, fields?: Fields) => write('info', message, fields),
	warn: (message: string, fields?: Fields) => write('warn', message, fields),
	error: (message: string, fields?: Fields) => write('error', message, fields)
};
