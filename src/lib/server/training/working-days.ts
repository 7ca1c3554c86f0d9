/**
 * Working days as the promise to answer counts them (« sous 2 jours ouvrés »): Monday to Friday in France's time
 * zone. Public holidays are not known here: on such a day the promise is a day shorter than a person would count.
 */
const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'Europe/Paris' });
const DAY_MS = 24 * 60 * 60 * 1000;

const isWorkingDay = (at: Date) => !['Sat', 'Sun'].includes(weekday.format(at));

/** The moment `days` working days after `from`: a question of Friday evening, 2 days, is due Tuesday evening. */
export function addWorkingDays(from: Date, days: number): Date {
	let at = from.getTime();
	let left = days;
	while (left > 0) {
		at += DAY_MS;
		if (isWorkingDay(new Date(at))) left--;
	}
	return new Date(at);
}
