/** Dates as French readers expect them, in the business's time zone. Client-safe. */
const PARIS = 'Europe/Paris';

/** "12 mars 2026, 09:30" (medium) or "12 mars 2026 à 09:30" (long). */
export const dateTime = (value: string | Date, style: 'medium' | 'long' = 'medium') =>
	new Date(value).toLocaleString('fr-FR', { dateStyle: style, timeStyle: 'short', timeZone: PARIS });

/** "12 mars 2026". */
export const longDate = (value: string | Date) =>
	new Date(value).toLocaleDateString('fr-FR', { dateStyle: 'long', timeZone: PARIS });
