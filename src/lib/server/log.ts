/**
 * One JSON line per event on stdout/stderr, so that any log collector can parse it. Callers pass facts, never
 * secrets: tokens, passwords and message bodies stay out of logs.
 */
type Fields = Record<string, unknown>;

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields = {}) {
	const entry: Fields = { time: new Date().toISOString(), level, message, ...fields };
	const error = fields.error;
	if (error instanceof Error) entry.error = { name: error.name, message: error.message, stack: error.stack };
	const line = JSON.stringify(entry);
	if (level === 'info') console.log(line);
	else console.error(line);
}

export const log = {
	info: (message: string, fields?: Fields) => write('info', message, fields),
	warn: (message: string, fields?: Fields) => write('warn', message, fields),
	error: (message: string, fields?: Fields) => write('error', message, fields)
};
