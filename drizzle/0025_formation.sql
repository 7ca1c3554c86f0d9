CREATE TABLE "cold_surveys" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"reminded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "positioning_answers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"questions" jsonb NOT NULL,
	"answers" jsonb NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"author_id" uuid,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"attachment_path" text,
	"attachment_name" text,
	"attachment_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_notices" (
	"admin_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "question_notices_admin_id_member_id_pk" PRIMARY KEY("admin_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "question_threads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"module_id" uuid,
	"module_title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"awaiting_since" timestamp with time zone,
	"first_answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "satisfaction_answers" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"questions" jsonb,
	"ratings" jsonb,
	"comment" text,
	"skipped" boolean DEFAULT false NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "satisfaction_answers_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "sign_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "audience" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "prerequisites" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "access_delay" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "price" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "accessibility" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "trainer_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "trainer_qualification" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "answer_delay_days" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "cold_survey_days" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "positioning" jsonb;--> statement-breakpoint
ALTER TABLE "course_settings" ADD COLUMN "survey_questions" jsonb;--> statement-breakpoint
ALTER TABLE "cold_surveys" ADD CONSTRAINT "cold_surveys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positioning_answers" ADD CONSTRAINT "positioning_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_messages" ADD CONSTRAINT "question_messages_thread_id_question_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."question_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_messages" ADD CONSTRAINT "question_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_notices" ADD CONSTRAINT "question_notices_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_notices" ADD CONSTRAINT "question_notices_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_threads" ADD CONSTRAINT "question_threads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_threads" ADD CONSTRAINT "question_threads_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "satisfaction_answers" ADD CONSTRAINT "satisfaction_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_ins" ADD CONSTRAINT "sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_messages_thread_idx" ON "question_messages" USING btree ("thread_id","created_at");--> statement-breakpoint
CREATE INDEX "question_threads_user_idx" ON "question_threads" USING btree ("user_id","last_message_at");--> statement-breakpoint
CREATE INDEX "question_threads_awaiting_idx" ON "question_threads" USING btree ("awaiting_since");--> statement-breakpoint
CREATE INDEX "question_threads_last_idx" ON "question_threads" USING btree ("last_message_at");--> statement-breakpoint
CREATE INDEX "satisfaction_answers_kind_idx" ON "satisfaction_answers" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "sign_ins_user_at_idx" ON "sign_ins" USING btree ("user_id","at");