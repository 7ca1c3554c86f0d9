CREATE TABLE "audience_daily" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"referrer_host" text DEFAULT '' NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"device" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "audience_daily_pk" PRIMARY KEY("day","path","referrer_host","utm_source","utm_medium","utm_campaign","device")
);
--> statement-breakpoint
CREATE TABLE "audience_events" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "audience_events_pk" PRIMARY KEY("day","kind")
);
--> statement-breakpoint
CREATE TABLE "audience_pages" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "audience_pages_pk" PRIMARY KEY("day","path")
);
--> statement-breakpoint
CREATE TABLE "audience_sources" (
	"day" date NOT NULL,
	"source" text NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "audience_sources_pk" PRIMARY KEY("day","source")
);
--> statement-breakpoint
CREATE TABLE "audience_visitors" (
	"day" date PRIMARY KEY NOT NULL,
	"visitors" integer NOT NULL,
	"views" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "candidatures" ADD COLUMN "source_page" text;--> statement-breakpoint
ALTER TABLE "candidatures" ADD COLUMN "referrer_host" text;--> statement-breakpoint
ALTER TABLE "candidatures" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "candidatures" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "candidatures" ADD COLUMN "utm_campaign" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "source_page" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "referrer_host" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "utm_campaign" text;