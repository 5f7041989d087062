CREATE TABLE "known_sign_ins" (
	"account_key" text NOT NULL,
	"address" text NOT NULL,
	"last_at" bigint NOT NULL,
	CONSTRAINT "known_sign_ins_account_key_address_pk" PRIMARY KEY("account_key","address")
);
--> statement-breakpoint
CREATE TABLE "throttle_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_ends_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "known_sign_ins_last_idx" ON "known_sign_ins" USING btree ("last_at");--> statement-breakpoint
CREATE INDEX "throttle_counters_window_idx" ON "throttle_counters" USING btree ("window_ends_at");--> statement-breakpoint
CREATE INDEX "users_license_image_idx" ON "users" USING btree ("license_image");--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;
