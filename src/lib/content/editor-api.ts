/**
 * The content editor's calls to the content API (/api/admin/pages/…). The one place the browser's code uses fetch
 * rather than a form action: a draft saved by itself a moment after each keystroke is no form submission, and
 * the API's answers (a new version, 409 with what is saved now, 401 when the session expired) are what the editor
 * acts on (draft-keeper.ts). tests/static/forms.test.ts holds every other fetch out of the browser's code.
 */
import type { SaveAnswer } from './draft-keeper';
import type { Fields } from './model';

export interface ApiAnswer {
	/** 0: the server could not be reached. */
	status: number;
	// The problem details or the answer's JSON, as the API documents them.
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	payload: any;
}

export async function callContentApi(method: string, url: string, body?: unknown): Promise<ApiAnswer> {
	try {
		const response = await fetch(url, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		const payload = response.headers.get('content-type')?.includes('json') ? await response.json() : null;
		return { status: response.status, payload };
	} catch {
		return { status: 0, payload: null };
	}
}

/** PUT the draft, as DraftKeeper reads the answer. */
export async function saveDraftRequest(api: string, version: number, draft: Fields): Promise<SaveAnswer> {
	const { status, payload } = await callContentApi('PUT', api, { version, draft });
	if (status === 200) return { status, version: payload.version };
	if (status === 409)
		return { status, conflict: { version: payload.version, draft: payload.draft, live: payload.live } };
	if (status === 401 || status === 403) return { status };
	if (status === 400 || status === 413)
		return { status, detail: payload?.detail ?? 'Brouillon refusé.', problems: payload?.errors ?? {} };
	return { status: 0 };
}

/** An article's cover through the image pipeline (POST /api/admin/upload): its `storage:` value and width. */
export async function uploadCoverRequest(file: File): Promise<{ value: string; width: number }> {
	const body = new FormData();
	body.set('file', file);
	const response = await fetch('/api/admin/upload', { method: 'POST', body });
	const answer = await response.json().catch(() => null);
	if (!response.ok) throw new Error(answer?.detail ?? 'La photo n’a pas pu être envoyée.');
	return { value: answer.value as string, width: answer.stats?.width as number };
}
