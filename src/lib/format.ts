/** Dates as French readers expect them, in the business's time zone. Client-safe. */
const PARIS = 'Europe/Paris';

/**
 * The formatters, made once: `toLocaleString` with options builds a new ICU formatter on every call — on an admin
 * list of hundreds of dates, most of the time of the call, and native memory churned on every page.
 */
const FORMATS = {
	medium: new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short', timeZone: PARIS }),
	long: new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: PARIS }),
	longDate: new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: PARIS })
};

/** "12 mars 2026, 09:30" (medium) or "12 mars 2026 à 09:30" (long). */
export const dateTime = (value: string | Date, style: 'medium' | 'long' = 'medium') =>
	formatted(FORMATS[style], value);

/** "12 mars 2026". */
export const longDate = (value: string | Date) => formatted(FORMATS.longDate, value);

/** A format throws on a date that is not one, where `toLocaleString` said « Invalid Date »: said the same. */
function formatted(format: Intl.DateTimeFormat, value: string | Date) {
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? 'Invalid Date' : format.format(date);
}

/**
 * "1 an", "12 ans", "0 personne": French puts the singular for 0 and 1. `plural` defaults to the word with an s.
 * The one way a count meets its noun (never « an(s) »).
 */
export const countOf = (count: number, singular: string, plural = `${singular}s`) =>
	`${count.toLocaleString('fr-FR')} ${Math.abs(count) < 2 ? singular : plural}`;

/** "732 829 320 00074": a SIRET as INSEE prints it (SIREN in threes, then the establishment's five digits). */
export const siret = (value: string) => {
	const digits = value.replace(/\D/g, '');
	return digits.length === 14
		? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6, 9)} ${digits.slice(9)}`
		: value;
};

/** "6 h 30", "45 min": a duration given in minutes. */
export const duration = (minutes: number) => {
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	if (!hours) return `${rest} min`;
	return rest ? `${hours} h ${String(rest).padStart(2, '0')}` : `${hours} h`;
};

/** "4 min 12", "45 s", "1 h 02 min 05": a place in a video, given in seconds. */
export const videoTime = (totalSeconds: number) => {
	const seconds = Math.max(0, Math.floor(totalSeconds));
	const hours = Math.floor(seconds / 3600);
	const minutes = Math.floor((seconds % 3600) / 60);
	const rest = String(seconds % 60).padStart(2, '0');
	if (hours) return `${hours} h ${String(minutes).padStart(2, '0')} min ${rest}`;
	if (minutes) return `${minutes} min ${rest}`;
	return `${seconds % 60} s`;
};

/** Numbers with at most 0 or 1 decimal, as French writes them ("1,4"): formatters made once, like the dates'. */
const DECIMALS = [
	new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 }),
	new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 })
];

/** "1,4", "12": `value` with at most `digits` decimals (0 or 1). */
export const decimal = (value: number, digits: 0 | 1) => DECIMALS[digits]!.format(value);

/** "608 o", "12 Ko", "1,4 Mo", "2,1 Go": a file's size, as French software says it. */
export const fileSize = (bytes: number) => {
	const units = ['o', 'Ko', 'Mo', 'Go'];
	let value = bytes;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	const digits = unit === 0 || value >= 10 ? 0 : 1;
	return `${decimal(value, digits)} ${units[unit]}`;
};
