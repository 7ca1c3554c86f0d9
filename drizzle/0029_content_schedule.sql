ALTER TABLE "content_entries" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "content_entries" ADD COLUMN "scheduled_by" uuid;--> statement-breakpoint
ALTER TABLE "content_entries" ADD CONSTRAINT "content_entries_scheduled_by_users_id_fk" FOREIGN KEY ("scheduled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_entries_scheduled_idx" ON "content_entries" USING btree ("scheduled_at") WHERE "content_entries"."scheduled_at" is not null;