/** Dates as the dashboard's charts and tables write them. */
const SHORT = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const WITH_YEAR = new Intl.DateTimeFormat('fr-FR', {
	day: 'numeric',
	month: 'short',
	year: 'numeric',
	timeZone: 'UTC'
});

/** « 26 nov. » (or « 26 nov. 2025 » over a year) from `2026-11-26`. */
export const shortDay = (day: string, withYear = false) =>
	day ? (withYear ? WITH_YEAR : SHORT).format(new Date(`${day}T12:00:00Z`)) : '';

/** « sem. du 23 nov. » from a week's Monday. */
export const weekLabel = (monday: string, withYear = false) => `sem. du ${shortDay(monday, withYear)}`;
