/**
 * Uploads that go wrong on the wire (issue "Hardening", point 2): a client gone mid-upload, and a body that ends
 * before its closing boundary, on the API and on the no-JavaScript form action. The server lives on, answers
 * 400 where someone is left to read it, and keeps no partial object.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { signInAsAdmin } from '../support/accounts';
import { RawConnection, requestHead } from '../support/raw-http';
import { fixture } from '../../helpers/fixtures';

test.describe.configure({ mode: 'serial' });

const BOUNDARY = '----atelier-e2e-upload';
const photo = readFileSync(fixture('2569067123_aca715a2ee_o.jpg'));
const partHead = Buffer.from(
	`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`
);
const whole = Buffer.concat([partHead, photo, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
const truncated = Buffer.concat([partHead, photo.subarray(0, 300_000)]);

let base: string;
let cookie: string;
const storedObjects = () => {
	const dir = path.join(process.env.E2E_DATA_DIR!, 'storage', 'private-gallery');
	try {
		return readdirSync(dir).filter((name) => name.endsWith('.webp')).length;
	} catch {
		return 0;
	}
};

test.beforeAll(async ({ browser }) => {
	base = process.env.E2E_BASE_URL!;
	const page: Page = await browser.newPage({ baseURL: base });
	await signInAsAdmin(page);
	cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
	await page.close();
});

const targets = [
	['the upload API', '/api/admin/upload'],
	['the images form action', '/admin/images?/upload&key=macon_hero']
] as const;

// A multipart POST is a form post: SvelteKit's CSRF check wants our Origin on it.
for (const [name, target] of targets) {
	const headersFor = (length: number) => ({
		'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
		'Content-Length': String(length),
		Cookie: cookie,
		Origin: base,
		Accept: 'application/json'
	});

	test(`${name}: a client gone halfway leaves no object, and the server answers the next requests`, async () => {
		const before = storedObjects();
		const connection = await RawConnection.open(base);
		connection.write(requestHead('POST', target, base, headersFor(whole.length)));
		connection.write(whole.subarray(0, Math.floor(whole.length / 2)));
		await new Promise((resolve) => setTimeout(resolve, 200));
		connection.destroy();
		expect((await fetch(`${base}/healthz`)).status).toBe(200);
		const next = await RawConnection.open(base);
		next.write(requestHead('GET', '/', base, {}));
		expect((await next.response()).status).toBe(200);
		next.destroy();
		expect(storedObjects()).toBe(before);
	});

	test(`${name}: a body that ends before its closing boundary gets a 400 and stores nothing`, async () => {
		const before = storedObjects();
		const connection = await RawConnection.open(base);
		connection.write(requestHead('POST', target, base, headersFor(truncated.length)));
		connection.write(truncated);
		const answer = await connection.response();
		if (target.startsWith('/api/')) {
			expect(answer.status).toBe(400);
		} else {
			// A form action asked for JSON (as enhance does) answers 200 with the failure inside.
			expect(JSON.parse(answer.body.toString())).toMatchObject({ type: 'failure', status: 400 });
		}
		expect(answer.body.toString()).toMatch(/incomplet|invalide/);
		connection.destroy();
		expect(storedObjects()).toBe(before);
		expect((await fetch(`${base}/healthz`)).status).toBe(200);
	});
}
