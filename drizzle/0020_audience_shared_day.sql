CREATE TABLE "audience_landings" (
	"day" date NOT NULL,
	"visitor" text NOT NULL,
	"visit_referrer_host" text NOT NULL,
	"visit_utm_source" text NOT NULL,
	"visit_utm_medium" text NOT NULL,
	"visit_utm_campaign" text NOT NULL,
	"first_path" text NOT NULL,
	"first_referrer_host" text NOT NULL,
	"first_utm_source" text NOT NULL,
	"first_utm_medium" text NOT NULL,
	"first_utm_campaign" text NOT NULL,
	CONSTRAINT "audience_landings_pk" PRIMARY KEY("day","visitor")
);
--> statement-breakpoint
CREATE TABLE "audience_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audience_visitor_rows" (
	"day" date NOT NULL,
	"visitor" text NOT NULL,
	"row" text NOT NULL,
	CONSTRAINT "audience_visitor_rows_pk" PRIMARY KEY("day","visitor","row")
);
