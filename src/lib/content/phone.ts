/**
 * The company's and the demos' telephone is written once, as people read it (« 04 78 00 00 00 »): the `tel:` links,
 * the JSON-LD and the e-mails take its international form from it (`+33478000000`), read by libphonenumber-js,
 * the maintained port of Google's libphonenumber — a second field for that form let the two disagree, and changing
 * the first left every link on the old line. A number it cannot read as one that can be called is refused at
 * publish. Client-safe (the editor says it before it asks).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** `+33478000000` for « 04 78 00 00 00 » (France unless the number says otherwise); null when it is no number. */
export function internationalPhone(text: string): string | null {
	const parsed = parsePhoneNumberFromString(text, 'FR');
	return parsed?.isValid() ? parsed.number : null;
}

export const PHONE_MESSAGE = 'un numéro qui peut être appelé (« 04 78 00 00 00 » ou « +33 4 78 00 00 00 »)';
