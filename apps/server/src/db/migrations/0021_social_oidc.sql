-- Issue 20 point 1: Google and Apple sign-in. The provider's stable user id (the ID token's `sub`) of a linked account.
ALTER TABLE "users" ADD COLUMN "google_id" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "apple_id" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "users_google_id_key" ON "users" USING btree ("google_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "users_apple_id_key" ON "users" USING btree ("apple_id");
--> statement-breakpoint
-- A sign-in under way: its state (hashed), PKCE verifier and nonce stay on the server, tied to the browser that started it.
CREATE TABLE "social_sign_ins" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"browser_hash" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"next" text,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "social_sign_ins_provider_check" CHECK ("social_sign_ins"."provider" IN ('google', 'apple'))
);
--> statement-breakpoint
CREATE INDEX "social_sign_ins_expires_at_idx" ON "social_sign_ins" USING btree ("expires_at");
