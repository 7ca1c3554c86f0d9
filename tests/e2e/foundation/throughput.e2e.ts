/**
 * A tripwire on the hot paths' speed (issue « Speed, part 2 », point 4): the cached home page and a stored photo of
 * the image proxy, each against a bare node:http server sending the same bytes and headers (bench/lib.mjs
 * `versusBareServer`, the same protocol as `npm run bench`, shorter), in alternating pairs of rounds. The proxy's
 * bare server also reads the file for each answer, as the proxy must fetch its upstream every time (SEED.md): what
 * is compared is everything else the proxy does. It runs last, alone (playwright.config.ts, project `throughput`).
 *
 * The threshold, and why: two identical bare servers measured this way land 0.91–1.08× of each other
 * (`pages.noise_ratio`, `images.noise_ratio` in `npm run bench`), a short round on a 2-core CI machine up to a
 * quarter further; the paths themselves measure 0.9–1.0× (the page) and 0.92–0.95× (the proxy against the reading
 * bare server). A ratio under 0.55 is then far beyond what chance does to a healthy path — and it is where the proxy
 * stood when it had lost a third of its speed unseen (0.39–0.47× at main 04f86b8; 0.23× through SvelteKit against this
 * bare server). So this fails on a fall like that one, never on noise; the figures themselves are `npm run bench`'s.
 */
import { expect, test } from '@playwright/test';
import { firstAdminCookie } from '../support/accounts';
import { setSlotPhoto } from '../support/photos';
import { startIsolatedServer } from '../support/server';

const TRIPWIRE = 0.55;

/** The benchmarks' own comparison (plain JavaScript, untyped: loaded by its address, not type-checked here). */
const benchLib = new URL('../../../bench/lib.mjs', import.meta.url).href;
const { versusBareServer } = (await import(benchLib)) as {
	versusBareServer: (server: unknown, target: string, options: Record<string, unknown>) => Promise<Measured>;
};
const ADMIN = { name: 'Vitesse', email: 'vitesse@exemple.fr', password: 'une phrase de passe solide' };
const BROWSER = {
	'accept-encoding': 'br, gzip',
	accept: 'text/html,application/xhtml+xml',
	'user-agent':
		'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
};

interface Measured {
	ratio: number | null;
	appRps: number;
	bareRps: number;
	failures: number;
}

test('the cached page and the image proxy stay far above the tripwire against a bare server', async () => {
	test.setTimeout(240_000);
	const server = await startIsolatedServer();
	try {
		// An admin's photo on the home page's hero: its upload makes the 480-px variant pages ask for.
		const cookie = await firstAdminCookie(server.url, ADMIN);
		await setSlotPhoto(server.url, cookie, 'hero', 'Landscape_1.jpg');
		const image = '/api/img/hero?w=480';
		await expect
			.poll(async () => (await fetch(server.url + image)).headers.get('x-image-fallback'), {
				timeout: 20_000
			})
			.toBeNull();
		await fetch(`${server.url}/`, { headers: BROWSER });

		const measure = (
			target: string,
			headers: Record<string, string>,
			total: number,
			readEachTime = false
		): Promise<Measured> =>
			versusBareServer(server, target, { headers, total, warm: 3 * total, rounds: 7, readEachTime });
		const page: Measured = await measure('/', BROWSER, 3000);
		const proxy: Measured = await measure(image, {}, 1500, true);
		const said = (name: string, m: Measured) =>
			`${name}: ${m.ratio?.toFixed(2)}× (${m.appRps.toFixed(0)} vs bare ${m.bareRps.toFixed(0)} req/s)`;
		console.log(`throughput tripwire at ${TRIPWIRE}×: ${said('cached /', page)}; ${said(image, proxy)}`);
		for (const [name, measured] of [
			['cached /', page],
			[image, proxy]
		] as const) {
			expect(measured.failures, name).toBe(0);
			expect(measured.ratio!, said(name, measured)).toBeGreaterThan(TRIPWIRE);
		}
	} finally {
		await server.stop();
	}
});
