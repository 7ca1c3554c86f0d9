// Part "members" of `npm run bench` (issue "Courses and the members' area", point 7; issue "Measured right", point
// 3): a signed-in /dashboard with 30 modules and a /cours/{slug} of a 3 000-word module, at 16 clients, each against
// /aide — a page of the same build that reads the session and renders a static paragraph — in the same run. On the
// embedded database, then on a PostgreSQL server when one answers (each query costs more in the embedded engine,
// which runs in the server's own thread: the same pages, the same queries, other ratios).
import { fmt, load, median, pairedRatio, signedInAdmin, startServer, withBenchDatabase } from './lib.mjs';

const ADMIN = { name: 'Bench', email: 'bench@exemple.fr', password: 'une phrase de passe solide' };
const WORDS = 'maçonnerie enduit chaux façade mur pierre terrasse dallage fondation linteau'.split(' ');

function longModule() {
	const paragraphs = [];
	for (let p = 0; p < 60; p++) {
		const words = Array.from({ length: 50 }, (_, i) => WORDS[(p * 7 + i) % WORDS.length]);
		paragraphs.push(`${p % 10 === 0 ? `## Partie ${p / 10 + 1}\n\n` : ''}${words.join(' ')}.`);
	}
	return paragraphs.join('\n\n');
}

export async function benchMembers() {
	await measure({}, '', 'embedded');
	await withBenchDatabase('members.postgres', (url) =>
		measure({ DATABASE_URL: url }, '_postgres', 'PostgreSQL')
	);
}

async function measure(env, suffix, label) {
	const server = await startServer(env);
	try {
		const cookie = await signedInAdmin(server, ADMIN);
		const headers = { cookie };
		for (let i = 0; i < 30; i++) {
			const created = await fetch(`${server.url}/api/admin/modules`, {
				method: 'POST',
				headers: { ...headers, 'content-type': 'application/json', origin: server.url },
				body: JSON.stringify({
					title: `Module ${i + 1}`,
					slug: `module-${i + 1}`,
					summary: 'Un module du programme.',
					content: i === 0 ? longModule() : `# Module ${i + 1}\n\nUn paragraphe.`,
					published: true,
					durationMinutes: 15
				})
			});
			if (created.status !== 201) throw new Error(`module answered ${created.status}`);
		}
		const targets = { aide: '/aide', dashboard: '/dashboard', course: '/cours/module-1' };
		for (const path of Object.values(targets)) {
			const check = await fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
			if (check.status !== 200) throw new Error(`${path} answered ${check.status}`);
			await load(server.url, path, { total: 300, headers });
		}
		// Each page against /aide in back-to-back pairs of rounds, their order alternating (lib.mjs pairedRatio): the
		// machine's speed drifts between rounds seconds apart, and a pair shares it.
		for (const name of ['dashboard', 'course']) {
			const round = (path) => load(server.url, path, { total: 1000, headers });
			const { ratio, firstRounds, secondRounds } = await pairedRatio(round, targets[name], targets.aide, 5);
			const failures = [...firstRounds, ...secondRounds].reduce((sum, r) => sum + r.failures, 0);
			const [page, aide] = [firstRounds, secondRounds].map((rounds) => ({
				rps: median(rounds.map((r) => r.rps)),
				p50: median(rounds.map((r) => r.p50)),
				p99: median(rounds.map((r) => r.p99))
			}));
			console.log(
				`members.${name}_ratio${suffix} ${failures ? `none (${failures} non-2xx answers)` : fmt(ratio)} (${label}, ${name === 'dashboard' ? '/dashboard, 30 modules' : '/cours, 3 000 words'}: ${fmt(page.rps, 0)} req/s, p50 ${fmt(page.p50)} ms, p99 ${fmt(page.p99)} ms; vs /aide ${fmt(aide.rps, 0)} req/s, p50 ${fmt(aide.p50)} ms, p99 ${fmt(aide.p99)} ms; 16 clients, signed in, median of 5 pairs of rounds${name === 'course' ? '; goal ≥ 0.8' : ''})`
			);
		}
	} finally {
		await server.stop();
	}
}
