/**
 * One message carried across a redirect (SEED part 5: a member sent away from the admin is told why). The cookie
 * names one of `$lib/messages`' FLASH_MESSAGES, never free text, so nobody can make the site say their words — at
 * most a small count goes with it (`recovery-code-used:7`); the next page reads and removes it. It lives a minute:
 * a redirect is followed at once or not at all.
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

export function setFlash(cookies: Cookies, key: FlashKey, count?: number): void {
	cookies.set(FLASH_COOKIE, count === undefined ? key : `${key}:${count}`, { ...options(), maxAge: 60 });
}

/** The message waiting for this page, if any; read once. */
export function takeFlash(cookies: Cookies): Flash | null {
	const value = cookies.get(FLASH_COOKIE);
	if (value === undefined) return null;
	cookies.delete(FLASH_COOKIE, options());
	const [, key = '', count] = /^([\w-]{1,60})(?::(\d{1,3}))?$/.exec(value) ?? [];
	if (!Object.hasOwn(FLASH_MESSAGES, key)) return null;
	const message: { text: string | ((n: number) => string); link?: Flash['link'] } =
		FLASH_MESSAGES[key as FlashKey];
	const text = typeof message.text === 'function' ? message.text(Number(count ?? 0)) : message.text;
	return { text, ...(message.link && { link: message.link }) };
}
