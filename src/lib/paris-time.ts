/**
 * Wall-clock times in France (Europe/Paris), whatever the browser's own zone: « Publier le 24/12 à 9 h » means 9 h
 * in Paris for an admin travelling abroad too. Client-safe; the formatter is made once (tests/static/formatters).
 */
const PARIS = new Intl.DateTimeFormat('en-GB', {
	timeZone: 'Europe/Paris',
	hourCycle: 'h23',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit',
	hour: '2-digit',
	minute: '2-digit'
});

/** `2026-12-24T09:00`, the value of an `<input type="datetime-local">`, for this instant in Paris. */
export function parisWallTime(at: Date): string {
	const part = (type: string) => PARIS.formatToParts(at).find((p) => p.type === type)!.value;
	return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/**
 * The instant of a Paris wall-clock time (`2026-12-24T09:00`), as ISO 8601 with its offset; null for anything else.
 * Paris is one hour ahead of UTC in winter, two in summer: the offset is the one under which the instant reads as
 * that wall time. One the clocks pass twice in autumn (2:30 on the last Sunday of October) is the first; one they
 * skip in spring (2:30 on the last Sunday of March) is read as the hour after it.
 */
export function fromParisWallTime(local: string): string | null {
	const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
	if (!match) return null;
	const [y, m, d, h, min] = match.slice(1).map(Number) as [number, number, number, number, number];
	const asUtc = Date.UTC(y, m - 1, d, h, min);
	if (new Date(asUtc).getUTCDate() !== d || h > 23 || min > 59) return null;
	const offset = [120, 60].find((minutes) => parisWallTime(new Date(asUtc - minutes * 60_000)) === local);
	if (offset === undefined) return written(new Date(asUtc - 60 * 60_000), 120);
	return written(new Date(asUtc - offset * 60_000), offset);
}

/** `at` written as its Paris wall time and `offset` (minutes ahead of UTC). */
function written(at: Date, offset: number): string {
	const wall = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, 16);
	return `${wall}:00+${String(offset / 60).padStart(2, '0')}:00`;
}
