-- Issue 20 point 6: each approval and suspension of an account, with the reason, who and when, so
-- the user's detail page shows its history.
CREATE TABLE "user_status_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"approved" boolean NOT NULL,
	"reason" text,
	"changed_by" text,
	"changed_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_status_changes" ADD CONSTRAINT "user_status_changes_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "user_status_changes" ADD CONSTRAINT "user_status_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "user_status_changes_uid_idx" ON "user_status_changes" USING btree ("uid","changed_at");
