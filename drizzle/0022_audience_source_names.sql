-- A visit's source as people name it (src/lib/server/insights/source-names.ts compiles its table to this function;
-- tests/static/source-names.test.ts checks that they are one): utm_source first, then the site, grouped.
CREATE OR REPLACE FUNCTION atelier_source_name(utm_source text, referrer_host text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT CASE
		WHEN lower(raw) ~ '^(google-maps|gmb|google-business|([a-z0-9-]+\.)*(maps\.google\.com|maps\.google\.fr|maps\.app\.goo\.gl))$' THEN 'Google Maps'
		WHEN lower(raw) ~ '^(gmail|([a-z0-9-]+\.)*(mail\.google\.com))$' THEN 'Gmail'
		WHEN lower(raw) ~ '^(google|adwords|google-ads|([a-z0-9-]+\.)*(google(\.[a-z]{2,3}){1,2}|googleadservices\.com))$' THEN 'Google'
		WHEN lower(raw) ~ '^(bing|([a-z0-9-]+\.)*(bing\.com))$' THEN 'Bing'
		WHEN lower(raw) ~ '^(qwant|([a-z0-9-]+\.)*(qwant\.com))$' THEN 'Qwant'
		WHEN lower(raw) ~ '^(duckduckgo|ddg|([a-z0-9-]+\.)*(duckduckgo\.com))$' THEN 'DuckDuckGo'
		WHEN lower(raw) ~ '^(ecosia|([a-z0-9-]+\.)*(ecosia\.org))$' THEN 'Ecosia'
		WHEN lower(raw) ~ '^(yahoo|([a-z0-9-]+\.)*(yahoo\.com|yahoo\.fr))$' THEN 'Yahoo'
		WHEN lower(raw) ~ '^(lilo|([a-z0-9-]+\.)*(lilo\.org))$' THEN 'Lilo'
		WHEN lower(raw) ~ '^(facebook|fb|meta|([a-z0-9-]+\.)*(facebook\.com|fb\.com|fb\.me))$' THEN 'Facebook'
		WHEN lower(raw) ~ '^(instagram|ig|([a-z0-9-]+\.)*(instagram\.com))$' THEN 'Instagram'
		WHEN lower(raw) ~ '^(linkedin|([a-z0-9-]+\.)*(linkedin\.com|lnkd\.in))$' THEN 'LinkedIn'
		WHEN lower(raw) ~ '^(twitter|x|([a-z0-9-]+\.)*(twitter\.com|x\.com|t\.co))$' THEN 'X (Twitter)'
		WHEN lower(raw) ~ '^(youtube|yt|([a-z0-9-]+\.)*(youtube\.com|youtu\.be))$' THEN 'YouTube'
		WHEN lower(raw) ~ '^(pinterest|([a-z0-9-]+\.)*(pinterest\.com|pinterest\.fr|pin\.it))$' THEN 'Pinterest'
		WHEN lower(raw) ~ '^(tiktok|([a-z0-9-]+\.)*(tiktok\.com))$' THEN 'TikTok'
		WHEN lower(raw) ~ '^(whatsapp|([a-z0-9-]+\.)*(whatsapp\.com|wa\.me))$' THEN 'WhatsApp'
		WHEN lower(raw) ~ '^(pagesjaunes|pages-jaunes|([a-z0-9-]+\.)*(pagesjaunes\.fr))$' THEN 'PagesJaunes'
		WHEN lower(raw) ~ '^(houzz|([a-z0-9-]+\.)*(houzz\.fr|houzz\.com))$' THEN 'Houzz'
		WHEN lower(raw) ~ '^(leboncoin|([a-z0-9-]+\.)*(leboncoin\.fr))$' THEN 'Leboncoin'
		WHEN lower(raw) ~ '^(habitatpresto|([a-z0-9-]+\.)*(habitatpresto\.com))$' THEN 'Habitatpresto'
		WHEN lower(raw) ~ '^(travaux\.com|travaux|([a-z0-9-]+\.)*(travaux\.com))$' THEN 'Travaux.com'
		ELSE raw
	END
	FROM (SELECT coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), '') AS raw) AS visit
$$;
--> statement-breakpoint
DROP INDEX "audience_daily_source_idx";--> statement-breakpoint
CREATE INDEX "audience_daily_source_idx" ON "audience_daily" USING btree (atelier_source_name("utm_source", "referrer_host"),"day");
--> statement-breakpoint
-- The sources' rollup, named as the dashboard now names them (two hosts of one site become one row).
CREATE TEMPORARY TABLE "audience_sources_named" AS
	SELECT "day", atelier_source_name("source", '') AS "source", sum("views")::integer AS "views",
		sum("visits")::integer AS "visits"
	FROM "audience_sources" GROUP BY 1, 2;--> statement-breakpoint
DELETE FROM "audience_sources";--> statement-breakpoint
INSERT INTO "audience_sources" ("day", "source", "views", "visits")
	SELECT "day", "source", "views", "visits" FROM "audience_sources_named";--> statement-breakpoint
DROP TABLE "audience_sources_named";
