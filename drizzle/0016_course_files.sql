CREATE TABLE "course_files" (
	"path" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"duration_seconds" integer,
	"index_at_end" boolean DEFAULT false NOT NULL,
	"original_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "course_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"size" bigint NOT NULL,
	"offset" bigint DEFAULT 0 NOT NULL,
	"parts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_positions" (
	"user_id" uuid NOT NULL,
	"module_id" uuid NOT NULL,
	"seconds" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_positions_user_id_module_id_pk" PRIMARY KEY("user_id","module_id")
);
--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "video" text;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "captions" text;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "poster" text;--> statement-breakpoint
ALTER TABLE "modules" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "video_positions" ADD CONSTRAINT "video_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_positions" ADD CONSTRAINT "video_positions_module_id_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."modules"("id") ON DELETE cascade ON UPDATE no action;