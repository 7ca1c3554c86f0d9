CREATE TABLE "audience_campaigns" (
	"day" date NOT NULL,
	"campaign" text NOT NULL,
	"medium" text NOT NULL,
	"views" integer NOT NULL,
	"visits" integer NOT NULL,
	CONSTRAINT "audience_campaigns_pk" PRIMARY KEY("day","campaign","medium")
);
--> statement-breakpoint
CREATE TABLE "audience_devices" (
	"day" date NOT NULL,
	"device" text NOT NULL,
	"views" integer NOT NULL,
	"visits" integer NOT NULL,
	CONSTRAINT "audience_devices_pk" PRIMARY KEY("day","device")
);
--> statement-breakpoint
ALTER TABLE "audience_daily" ADD COLUMN "entries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_pages" ADD COLUMN "entries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_sources" ADD COLUMN "visits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audience_visitors" ADD COLUMN "visits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "audience_daily_path_idx" ON "audience_daily" USING btree ("path","day");--> statement-breakpoint
CREATE INDEX "audience_daily_source_idx" ON "audience_daily" USING btree (coalesce(nullif("referrer_host", ''), nullif("utm_source", ''), ''),"day");--> statement-breakpoint
CREATE INDEX "audience_daily_campaign_idx" ON "audience_daily" USING btree ("utm_campaign","day") WHERE "audience_daily"."utm_campaign" <> '';--> statement-breakpoint
CREATE INDEX "audience_daily_device_idx" ON "audience_daily" USING btree ("device","day");--> statement-breakpoint
-- Days counted before visits were: each visitor of a day made at least one visit (and each row's visitors one each).
UPDATE "audience_visitors" SET "visits" = "visitors";--> statement-breakpoint
UPDATE "audience_sources" s SET "visits" = d."visitors"
FROM (SELECT "day", coalesce(nullif("referrer_host", ''), nullif("utm_source", ''), '') AS source, sum("visitors") AS visitors
	FROM "audience_daily" GROUP BY 1, 2) d
WHERE d."day" = s."day" AND d.source = s."source";--> statement-breakpoint
INSERT INTO "audience_devices" ("day", "device", "views", "visits")
SELECT "day", "device", sum("views"), sum("visitors") FROM "audience_daily" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "audience_campaigns" ("day", "campaign", "medium", "views", "visits")
SELECT "day", "utm_campaign", "utm_medium", sum("views"), sum("visitors") FROM "audience_daily"
WHERE "utm_campaign" <> '' GROUP BY 1, 2, 3;
