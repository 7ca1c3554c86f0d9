/**
 * A visit's source as people name it (issue « Experience, part 4 », point 5): its `utm_source` when the link carried
 * one (Plausible and Google Analytics take it first: the sender named it), else the site it came from; then grouped,
 * so that `l.facebook.com`, `m.facebook.com` and a link tagged `utm_source=facebook` are one « Facebook ». What the
 * table does not know is shown as it came (`lettre`, `mail.example`).
 *
 * The database groups and filters by the same rule: `SOURCE_NAME_FUNCTION` is the SQL function this table compiles to
 * (migration 0022 creates it, and `tests/static/source-names.test.ts` checks the two are one). A change to the table
 * is a new migration that replaces the function and rebuilds the index on it.
 */

/**
 * Each known source: its name, and the `utm_source` values and site names (a host ends with one) that are it. The
 * first that matches names the source: Google's own services come before Google.
 */
const KNOWN: readonly { name: string; tags: readonly string[]; sites: readonly string[] }[] = [
	{
		name: 'Google Maps',
		tags: ['google-maps', 'gmb', 'google-business'],
		sites: ['maps.google.com', 'maps.google.fr', 'maps.app.goo.gl']
	},
	{ name: 'Gmail', tags: ['gmail'], sites: ['mail.google.com'] },
	// Search engines.
	{ name: 'Google', tags: ['google', 'adwords', 'google-ads'], sites: ['google', 'googleadservices.com'] },
	{ name: 'Bing', tags: ['bing'], sites: ['bing.com'] },
	{ name: 'Qwant', tags: ['qwant'], sites: ['qwant.com'] },
	{ name: 'DuckDuckGo', tags: ['duckduckgo', 'ddg'], sites: ['duckduckgo.com'] },
	{ name: 'Ecosia', tags: ['ecosia'], sites: ['ecosia.org'] },
	{ name: 'Yahoo', tags: ['yahoo'], sites: ['yahoo.com', 'yahoo.fr'] },
	{ name: 'Lilo', tags: ['lilo'], sites: ['lilo.org'] },
	// Social sites and messaging.
	{ name: 'Facebook', tags: ['facebook', 'fb', 'meta'], sites: ['facebook.com', 'fb.com', 'fb.me'] },
	{ name: 'Instagram', tags: ['instagram', 'ig'], sites: ['instagram.com'] },
	{ name: 'LinkedIn', tags: ['linkedin'], sites: ['linkedin.com', 'lnkd.in'] },
	{ name: 'X (Twitter)', tags: ['twitter', 'x'], sites: ['twitter.com', 'x.com', 't.co'] },
	{ name: 'YouTube', tags: ['youtube', 'yt'], sites: ['youtube.com', 'youtu.be'] },
	{ name: 'Pinterest', tags: ['pinterest'], sites: ['pinterest.com', 'pinterest.fr', 'pin.it'] },
	{ name: 'TikTok', tags: ['tiktok'], sites: ['tiktok.com'] },
	{ name: 'WhatsApp', tags: ['whatsapp'], sites: ['whatsapp.com', 'wa.me'] },
	// Directories and marketplaces where a tradesman is found.
	{ name: 'PagesJaunes', tags: ['pagesjaunes', 'pages-jaunes'], sites: ['pagesjaunes.fr'] },
	{ name: 'Houzz', tags: ['houzz'], sites: ['houzz.fr', 'houzz.com'] },
	{ name: 'Leboncoin', tags: ['leboncoin'], sites: ['leboncoin.fr'] },
	{ name: 'Habitatpresto', tags: ['habitatpresto'], sites: ['habitatpresto.com'] },
	{ name: 'Travaux.com', tags: ['travaux.com', 'travaux'], sites: ['travaux.com'] }
];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One pattern per name, over the lower-cased value: a tag exactly, or a host that is a site or ends with `.site`. The
 * bare word `google` stands for every Google country domain (google.fr, www.google.co.uk).
 */
const PATTERNS = KNOWN.map(({ name, tags, sites }) => {
	const hosts = sites.map((site) => (site === 'google' ? 'google(\\.[a-z]{2,3}){1,2}' : escaped(site)));
	return {
		name,
		pattern: `^(${tags.map(escaped).join('|')}|([a-z0-9-]+\\.)*(${hosts.join('|')}))$`
	};
});

const COMPILED = PATTERNS.map(({ name, pattern }) => ({ name, pattern: new RegExp(pattern) }));

/** A visit's source from its campaign's `utm_source` and the host it came from (each '' when it has none). */
export function sourceName(utmSource: string, referrerHost: string): string {
	const raw = utmSource || referrerHost;
	const lower = raw.toLowerCase();
	return COMPILED.find(({ pattern }) => pattern.test(lower))?.name ?? raw;
}

/**
 * The same rule in SQL: `atelier_source_name(utm_source, referrer_host)`, immutable so that an index can be built
 * on it (the dashboard's source filter reads the visits' rows through it).
 */
export const SOURCE_NAME_FUNCTION = `CREATE OR REPLACE FUNCTION atelier_source_name(utm_source text, referrer_host text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT CASE
${PATTERNS.map(({ name, pattern }) => `		WHEN lower(raw) ~ '${pattern}' THEN '${name.replace(/'/g, "''")}'`).join('\n')}
		ELSE raw
	END
	FROM (SELECT coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), '') AS raw) AS visit
$$;`;
