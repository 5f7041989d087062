ALTER TABLE "users" ADD COLUMN "facebook_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_facebook_id_key" ON "users" USING btree ("facebook_id");