/**
 * Page loads and the domain's typed errors: a domain throws NotFoundError (and its kin) without knowing SvelteKit;
 * a page's load maps it to SvelteKit's error page with the same status and message — a 404, not a 500 logged as
 * a bug. (API routes get problem details from http/api.ts; form actions a French message from http/forms.ts.)
 */
import { error } from '@sveltejs/kit';
import { AppError } from '../errors';

export async function orErrorPage<T>(load: () => T | Promise<T>): Promise<T> {
	try {
		return await load();
	} catch (thrown) {
		if (thrown instanceof AppError) error(thrown.status, thrown.message);
		throw thrown;
	}
}
