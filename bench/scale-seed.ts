/**
 * A site after years of use (issue « Years of use », point 1), in plain SQL so that it takes minutes, not hours:
 * at `scale` 1, 200,000 leads over three years, 300,000 logged e-mails, 5,000 members with their candidatures,
 * subscriptions, progress, video positions, quiz attempts, sign-ins, questions and surveys, 100,000 audit rows, a
 * year of audience over 150 pages and 300 published articles. `npm run bench scale` seeds it at 1 on PostgreSQL and
 * in the embedded database; the query-plan test seeds it at a small scale (a few thousand rows a table), so that both
 * read the same shapes. Every row is made from `generate_series`: the same scale gives the same site.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../src/lib/server/db';
import { rowsOf } from '../src/lib/server/db/migrate';

export const REFERENCE_SIZE = {
	leads: 200_000,
	emails: 300_000,
	members: 5_000,
	auditEvents: 100_000,
	audiencePages: 150,
	articles: 300
};

export type SeededCounts = Record<string, number>;

const TABLES = [
	'leads',
	'emails',
	'users',
	'candidatures',
	'memberships',
	'module_progress',
	'video_positions',
	'quiz_attempts',
	'sign_ins',
	'question_threads',
	'question_messages',
	'satisfaction_answers',
	'audit_events',
	'audience_daily',
	'content_entries'
] as const;

/** Seeds a migrated, empty database at `scale` (1: the reference size) and returns each table's row count. */
export async function seedScale(db: DbOrTx, scale = 1): Promise<SeededCounts> {
	const n = (x: number) => Math.max(1, Math.round(x * scale));
	const leads = n(REFERENCE_SIZE.leads);
	const members = n(REFERENCE_SIZE.members);
	const run = (query: ReturnType<typeof sql>) => db.execute(query);

	// Leads over three years, newest first by number; one in twenty spam, most handled, a few whose notice failed.
	await run(sql`
		insert into leads (kind, name, email, phone, company, city, project_type, message, spam, spam_reason, handled,
			created_at, notified_at, notify_error)
		select case when i % 3 = 0 then 'devis' else 'contact' end, 'Client ' || i, 'client' || i || '@exemple.fr',
			'06' || lpad((i * 7919 % 100000000)::text, 8, '0'), case when i % 5 = 0 then 'SARL Pierre ' || i end,
			(array['Lyon', 'Crémieu', 'Vienne', 'Bourgoin', 'Villeurbanne'])[1 + i % 5],
			case when i % 3 = 0 then 'mur' end,
			'Bonjour, nous aimerions refaire un mur en pierre sèche de douze mètres le long du jardin. Demande ' || i,
			i % 20 = 0, case when i % 20 = 0 then 'honeypot' end, i % 10 <> 0,
			now() - make_interval(secs => i * ${Math.round((3 * 365 * 86400) / leads)}),
			case when i % 20 <> 0 and i % 97 <> 0
				then now() - make_interval(secs => i * ${Math.round((3 * 365 * 86400) / leads)}) end,
			case when i % 97 = 0 and i % 20 <> 0 then 'SMTP injoignable' end
		from generate_series(1, ${leads}) as i`);

	const emails = n(REFERENCE_SIZE.emails);
	await run(sql`
		insert into emails ("to", subject, template, status, error, created_at, sent_at)
		select 'client' || i || '@exemple.fr', 'Votre demande a bien été reçue',
			(array['lead-acknowledgement', 'lead-notification', 'welcome', 'course-reminder'])[1 + i % 4],
			case when i % 101 = 0 then 'failed' else 'sent' end, case when i % 101 = 0 then 'SMTP injoignable' end,
			now() - make_interval(secs => i * ${Math.round((3 * 365 * 86400) / emails)}),
			case when i % 101 <> 0 then now() - make_interval(secs => i * ${Math.round((3 * 365 * 86400) / emails)}) end
		from generate_series(1, ${emails}) as i`);

	// The course: five published modules, the third with a quiz.
	await run(sql`
		insert into modules (slug, title, summary, content, position, published, duration_minutes, quiz)
		select 'module-' || m, 'Module ' || m || ' : gagner des clients', 'Ce que le module apprend.',
			'Le texte du module ' || m || '.', m, true, 30,
			case when m = 3 then '{"passPercent":60,"questions":[{"prompt":"Quelle photo ?","choices":[{"text":"Nette","correct":true},{"text":"Floue","correct":false}]}]}'::jsonb end
		from generate_series(1, 5) as m
		on conflict do nothing`);

	// Members, each from an enrolled candidature and an active subscription, joined over three years.
	await run(sql`
		insert into users (email, name, password_hash, created_at, last_sign_in_at)
		select 'membre' || i || '@exemple.fr', 'Membre ' || i || ' Martin', 'not-a-password-hash',
			now() - make_interval(days => i * 1095 / ${members}), now() - make_interval(hours => i % 2000)
		from generate_series(1, ${members}) as i`);
	await run(sql`
		insert into candidatures (status, first_name, last_name, email, phone, postal_code, city, trade, company, siret,
			years_experience, team_size, goals, presence, hours_per_week, motivation, consent_at, created_at,
			decided_at, user_id)
		select 'enrolled', 'Membre ' || split_part(u.email, '@', 1), 'Martin', u.email, '+33612345678', '38460',
			'Crémieu', 'macon', 'Entreprise ' || u.name, '73282932000074', 10, 3, '["clients"]', '["site"]', 4,
			'Trouver des chantiers près de chez moi.', u.created_at, u.created_at, u.created_at, u.id
		from users u where u.email like 'membre%@exemple.fr'`);
	await run(sql`
		insert into memberships (user_id, candidature_id, stripe_customer_id, stripe_subscription_id, status,
			current_period_end, state_at, created_at)
		select c.user_id, c.id, 'cus_' || md5(c.email), 'sub_' || md5(c.email), 'active', now() + interval '20 days',
			c.created_at, c.created_at
		from candidatures c where c.user_id is not null`);
	// Progress: member k has completed the first k mod 6 modules.
	await run(sql`
		insert into module_progress (user_id, module_id, completed_at)
		select u.id, m.id, u.created_at + make_interval(days => m.position)
		from (select id, created_at, row_number() over (order by email) as k from users
			where email like 'membre%@exemple.fr') u
		join modules m on m.position <= u.k % 6`);
	await run(sql`
		insert into video_positions (user_id, module_id, seconds, updated_at)
		select p.user_id, p.module_id, 240, p.completed_at from module_progress p`);
	await run(sql`
		insert into quiz_attempts (user_id, module_id, score, correct, total, passed, answers, created_at)
		select p.user_id, p.module_id, s.score, s.score / 100, 1, s.score = 100, '[[0]]', p.completed_at
		from module_progress p join modules m on m.id = p.module_id and m.quiz is not null,
			(values (0), (100)) as s(score)`);
	await run(sql`
		insert into sign_ins (user_id, at)
		select u.id, u.created_at + make_interval(days => d * 7)
		from users u, generate_series(1, 20) as d where u.email like 'membre%@exemple.fr'`);
	// Questions to the trainer: one member in five asked two, answered within a day but the newest.
	await run(sql`
		insert into question_threads (user_id, module_id, module_title, created_at, last_message_at, awaiting_since,
			first_answered_at)
		select u.id, m.id, m.title, u.created_at + make_interval(days => q), u.created_at + make_interval(days => q),
			case when u.k % 50 = 0 then u.created_at + make_interval(days => q) end,
			case when u.k % 50 <> 0 then u.created_at + make_interval(days => q, hours => 20) end
		from (select id, created_at, row_number() over (order by email) as k from users
			where email like 'membre%@exemple.fr') u
		join modules m on m.position = 1 + u.k % 5, generate_series(1, 2) as q
		where u.k % 5 = 0`);
	await run(sql`
		insert into question_messages (thread_id, author_id, author, body, created_at)
		select t.id, case when a.author = 'member' then t.user_id end, a.author,
			case when a.author = 'member' then 'Quel angle pour photographier un mur ?' else 'De biais, à hauteur d’yeux.' end,
			case when a.author = 'member' then t.created_at else t.first_answered_at end
		from question_threads t, (values ('member'), ('trainer')) as a(author)
		where a.author = 'member' or t.first_answered_at is not null`);
	await run(sql`
		insert into satisfaction_answers (user_id, kind, questions, ratings, comment, skipped, answered_at)
		select p.user_id, 'hot', '["Q1","Q2","Q3","Q4","Q5"]', '[5,4,5,4,5]',
			case when p.n % 3 = 0 then 'Très utile, merci.' end, p.n % 7 = 0, now() - make_interval(days => p.n % 700)
		from (select user_id, (row_number() over (order by user_id))::int as n from module_progress
			group by user_id having count(*) = 5) p`);

	// The admins' trail: leads handled, one row a lead for the newest, each naming its lead.
	const audit = n(REFERENCE_SIZE.auditEvents);
	await run(sql`
		insert into audit_events (at, actor_email, kind, subject_type, subject_id, changes)
		select l.created_at + interval '1 hour', 'admin@exemple.fr', 'lead.handled', 'lead', l.id::text,
			'{"handled":{"before":false,"after":true}}'
		from (select id, created_at from leads order by created_at desc limit ${audit}) l`);

	// A year of audience: each page seen every day from four sources on two device classes, and the totals the
	// server's writes keep beside the daily rows (insights/queries.ts).
	const pages = n(REFERENCE_SIZE.audiencePages);
	await run(sql`
		insert into audience_daily (day, path, referrer_host, utm_source, utm_medium, utm_campaign, device, views,
			visitors, entries)
		select current_date - d, '/page-' || p,
			case when s = 0 then '' else 'site-' || ((p * 7 + s * 13 + d) % 100) || '.fr' end,
			case when s = 3 then 'newsletter' else '' end, case when s = 3 then 'email' else '' end,
			case when s = 3 then 'printemps' else '' end,
			case when (p + d) % 3 = 0 then 'desktop' else 'mobile' end,
			1 + (p * s + d) % 20, 1 + (p + s + d) % 10, (p + s + d) % 4
		from generate_series(0, 364) as d, generate_series(1, ${pages}) as p, generate_series(0, 3) as s
		on conflict do nothing`);
	await run(sql`
		insert into audience_visitors (day, visitors, views, visits)
		select day, 400 + (extract(doy from day)::int * 37) % 300, sum(views), sum(entries)
		from audience_daily group by day on conflict do nothing`);
	await run(sql`
		insert into audience_pages (day, path, views, visitors, entries)
		select day, path, sum(views), sum(visitors), sum(entries) from audience_daily group by day, path
		on conflict do nothing`);
	await run(sql`
		insert into audience_sources (day, source, views, visits)
		select day, case when referrer_host <> '' then referrer_host else utm_source end, sum(views), sum(entries)
		from audience_daily group by 1, 2 on conflict do nothing`);
	await run(sql`
		insert into audience_campaigns (day, campaign, medium, views, visits)
		select day, utm_campaign, utm_medium, sum(views), sum(entries) from audience_daily
		where utm_campaign <> '' group by 1, 2, 3 on conflict do nothing`);
	await run(sql`
		insert into audience_devices (day, device, views, visits)
		select day, device, sum(views), sum(entries) from audience_daily group by 1, 2 on conflict do nothing`);

	// Articles, one a week or so for years, each published once.
	const articles = n(REFERENCE_SIZE.articles);
	await run(sql`
		insert into content_entries (id, kind, path, version, live_revision, first_published_at, updated_at, created_at)
		select 'article-' || a, 'article', '/blog/article-' || a, 1, 1, now() - make_interval(days => a * 4),
			now() - make_interval(days => a * 4), now() - make_interval(days => a * 4)
		from generate_series(1, ${articles}) as a`);
	await run(sql`
		insert into content_revisions (entry_id, n, fields, published_at)
		select e.id, 1, jsonb_build_object('title', 'Article ' || substr(e.id, 9) || ' : bâtir en pierre sèche',
			'description', 'Ce qu’un mur en pierre sèche demande, et ce qu’il rend, en quelques lignes.',
			'slug', substr(e.path, 7), 'cover', null,
			'body', repeat('Un mur en pierre sèche tient par son poids et par son fruit. ', 40)), e.first_published_at
		from content_entries e where e.kind = 'article' and e.id like 'article-%'`);

	const counts: SeededCounts = {};
	for (const table of TABLES) {
		const [row] = rowsOf<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from ${table}`)));
		counts[table] = Number(row?.n ?? 0);
	}
	return counts;
}
