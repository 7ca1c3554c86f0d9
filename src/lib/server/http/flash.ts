/**
 * One message carried across a redirect (SEED part 5: a member sent away from the admin is told why). The cookie
 * names one of `$lib/messages`' FLASH_MESSAGES, never free text, so nobody can make the site say their words; the next page
 * reads and removes it. It lives a minute: a redirect is followed at once or not at all.
 */
import type { Cookies } from '@sveltejs/kit';
import { FLASH_MESSAGES, type Flash, type FlashKey } from '$lib/messages';
import { config } from '../config';

const FLASH_COOKIE = 'flash';
const options = () => ({
	path: '/',
	httpOnly: true,
	sameSite: 'lax' as const,
	secure: config.origin.protocol === 'https:'
});

export function setFlash(cookies: Cookies, key: FlashKey): void {
	cookies.set(FLASH_COOKIE, key, { ...options(), maxAge: 60 });
}

/** The message waiting for this page, if any; read once. */
export function takeFlash(cookies: Cookies): Flash | null {
	const key = cookies.get(FLASH_COOKIE);
	if (key === undefined) return null;
	cookies.delete(FLASH_COOKIE, options());
	return Object.hasOwn(FLASH_MESSAGES, key) ? FLASH_MESSAGES[key as FlashKey] : null;
}
