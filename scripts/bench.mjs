// `npm run bench`: builds if needed, then prints one line per figure, each a ratio or difference against a
// baseline measured in the same run (these machines are noisy: absolute numbers mean little).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('build/server.js')) {
	const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
	if (built.status !== 0) process.exit(built.status ?? 1);
}

const parts = process.argv.slice(2);
const wanted = (name) => parts.length === 0 || parts.includes(name);

if (wanted('images')) {
	const { benchImages } = await import('../bench/images.mjs');
	await benchImages();
}

if (wanted('pages')) {
	const { benchPages } = await import('../bench/pages.mjs');
	await benchPages();
}

if (wanted('blog')) {
	const { benchBlog } = await import('../bench/blog.mjs');
	await benchBlog();
}

if (wanted('leads')) {
	const { benchLeads } = await import('../bench/leads.mjs');
	await benchLeads();
}

if (wanted('memory')) {
	const { benchMemory } = await import('../bench/memory.mjs');
	await benchMemory();
}

if (wanted('webhook')) {
	const { benchWebhook } = await import('../bench/webhook.mjs');
	await benchWebhook();
}

if (wanted('members')) {
	const { benchMembers } = await import('../bench/members.mjs');
	await benchMembers();
}

if (wanted('backup')) {
	const { benchBackup } = await import('../bench/backup.mjs');
	await benchBackup();
}

if (wanted('showcase')) {
	const { benchShowcase } = await import('../bench/showcase.mjs');
	await benchShowcase();
}

if (wanted('fleet')) {
	const { benchFleet } = await import('../bench/fleet.mjs');
	await benchFleet();
}

if (wanted('scale')) {
	const { benchScale } = await import('../bench/scale.mjs');
	await benchScale();
}

if (wanted('insights')) {
	const { benchInsights } = await import('../bench/insights.mjs');
	await benchInsights();
}

if (wanted('media')) {
	const { benchMedia } = await import('../bench/media.mjs');
	await benchMedia();
}
