CREATE TABLE "candidature_drafts" (
	"id" text PRIMARY KEY NOT NULL,
	"answers" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "candidatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"postal_code" text NOT NULL,
	"city" text NOT NULL,
	"trade" text NOT NULL,
	"trade_other" text,
	"company" text NOT NULL,
	"siret" text NOT NULL,
	"years_experience" integer NOT NULL,
	"team_size" integer NOT NULL,
	"current_site" text,
	"goals" jsonb NOT NULL,
	"presence" jsonb NOT NULL,
	"hours_per_week" integer NOT NULL,
	"motivation" text NOT NULL,
	"consent_at" timestamp with time zone NOT NULL,
	"spam" boolean DEFAULT false NOT NULL,
	"spam_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	"notify_error" text,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"rejection_reason" text,
	"checkout_attempt" integer DEFAULT 0 NOT NULL,
	"checkout_session_id" text,
	"checkout_url" text,
	"user_id" uuid
);
--> statement-breakpoint
ALTER TABLE "candidatures" ADD CONSTRAINT "candidatures_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidatures" ADD CONSTRAINT "candidatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "candidature_drafts_updated_at_idx" ON "candidature_drafts" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "candidatures_created_at_idx" ON "candidatures" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "candidatures_status_idx" ON "candidatures" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "candidatures_open_email_unique" ON "candidatures" USING btree ("email") WHERE status in ('pending', 'approved') and not spam;