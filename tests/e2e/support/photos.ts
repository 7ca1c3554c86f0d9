/**
 * A site photo set as an admin does it, over HTTP without a browser: a fixture uploaded through the image pipeline
 * (which makes its smaller widths after its answer) and put in a slot.
 */
import { readFileSync } from 'node:fs';

/**
 * Uploads `tests/fixtures/images/<file>` and makes it the photo of slot `key`; its `storage:` value. `headers` go
 * with both requests (a test load balancer's routing, say).
 */
export async function setSlotPhoto(
	url: string,
	cookie: string,
	key: string,
	file: string,
	headers: Record<string, string> = {}
): Promise<string> {
	const form = new FormData();
	form.append(
		'file',
		new Blob([readFileSync(`tests/fixtures/images/${file}`)], { type: 'image/jpeg' }),
		file
	);
	const upload = await fetch(`${url}/api/admin/upload`, {
		method: 'POST',
		headers: { ...headers, cookie, origin: url },
		body: form
	});
	if (upload.status !== 201) throw new Error(`upload answered ${upload.status}`);
	const { value } = (await upload.json()) as { value: string };
	const put = await fetch(`${url}/api/admin/site-images`, {
		method: 'PUT',
		headers: { ...headers, 'content-type': 'application/json', cookie },
		body: JSON.stringify({ key, url: value, alt: 'Un mur de pierre' })
	});
	if (put.status !== 200) throw new Error(`PUT site-images answered ${put.status}`);
	return value;
}
