CREATE TABLE "leads_daily" (
	"day" date NOT NULL,
	"raw_source" text NOT NULL,
	"source_page" text NOT NULL,
	"campaign" text NOT NULL,
	"leads" integer NOT NULL,
	CONSTRAINT "leads_daily_pk" PRIMARY KEY("day","raw_source","source_page","campaign")
);
--> statement-breakpoint
DROP INDEX "leads_genuine_origin_idx";--> statement-breakpoint
-- leads_daily follows `leads` statement by statement: what a statement's rows add and take away (a genuine lead,
-- counted on its day in France under its raw source, page and campaign), netted per key and applied in one upsert.
-- An update that touches nothing counted (handled, the notice) nets to nothing and writes nothing.
CREATE OR REPLACE FUNCTION "leads_daily_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO leads_daily AS d (day, raw_source, source_page, campaign, leads)
		SELECT (created_at AT TIME ZONE 'Europe/Paris')::date,
			coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), ''), coalesce(source_page, ''),
			coalesce(utm_campaign, ''), count(*)
		FROM new_rows WHERE NOT spam GROUP BY 1, 2, 3, 4
		ON CONFLICT (day, raw_source, source_page, campaign) DO UPDATE SET leads = d.leads + excluded.leads;
		RETURN NULL;
	END IF;
	IF TG_OP = 'DELETE' THEN
		UPDATE leads_daily AS d SET leads = d.leads - gone.n
		FROM (
			SELECT (created_at AT TIME ZONE 'Europe/Paris')::date AS day,
				coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), '') AS raw_source,
				coalesce(source_page, '') AS source_page, coalesce(utm_campaign, '') AS campaign, count(*) AS n
			FROM old_rows WHERE NOT spam GROUP BY 1, 2, 3, 4
		) AS gone
		WHERE (d.day, d.raw_source, d.source_page, d.campaign) = (gone.day, gone.raw_source, gone.source_page, gone.campaign);
	ELSE
		INSERT INTO leads_daily AS d (day, raw_source, source_page, campaign, leads)
		SELECT day, raw_source, source_page, campaign, sum(delta)
		FROM (
			SELECT (created_at AT TIME ZONE 'Europe/Paris')::date AS day,
				coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), '') AS raw_source,
				coalesce(source_page, '') AS source_page, coalesce(utm_campaign, '') AS campaign, 1 AS delta
			FROM new_rows WHERE NOT spam
			UNION ALL
			SELECT (created_at AT TIME ZONE 'Europe/Paris')::date,
				coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), ''), coalesce(source_page, ''),
				coalesce(utm_campaign, ''), -1
			FROM old_rows WHERE NOT spam
		) AS changes
		GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
		ON CONFLICT (day, raw_source, source_page, campaign) DO UPDATE SET leads = d.leads + excluded.leads;
	END IF;
	-- A key whose last lead went: no row, rather than a row of 0.
	DELETE FROM leads_daily
	WHERE leads = 0 AND day IN (SELECT DISTINCT (created_at AT TIME ZONE 'Europe/Paris')::date FROM old_rows);
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "leads_daily_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM leads_daily;
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "leads_daily_insert" AFTER INSERT ON "leads"
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "leads_daily_count"();--> statement-breakpoint
CREATE TRIGGER "leads_daily_update" AFTER UPDATE ON "leads"
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "leads_daily_count"();--> statement-breakpoint
CREATE TRIGGER "leads_daily_delete" AFTER DELETE ON "leads"
	REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "leads_daily_count"();--> statement-breakpoint
CREATE TRIGGER "leads_daily_truncate" AFTER TRUNCATE ON "leads"
	FOR EACH STATEMENT EXECUTE FUNCTION "leads_daily_clear"();--> statement-breakpoint
INSERT INTO leads_daily (day, raw_source, source_page, campaign, leads)
SELECT (created_at AT TIME ZONE 'Europe/Paris')::date, coalesce(nullif(utm_source, ''), nullif(referrer_host, ''), ''),
	coalesce(source_page, ''), coalesce(utm_campaign, ''), count(*)
FROM leads WHERE NOT spam GROUP BY 1, 2, 3, 4;
