-- Issue 20 point 5: two-factor sign-in (TOTP) for admins and fleet admins.
-- A staff member's authenticator secret (base32, as the authenticator app holds it), enabled once
-- confirmed with a code; the last time step used, so a code is never accepted twice; the wrong
-- codes counted per user over a window.
CREATE TABLE "two_factor" (
	"uid" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"enabled_at" bigint,
	"last_time_step" bigint,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"failed_since" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "two_factor" ADD CONSTRAINT "two_factor_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Single-use recovery codes, kept as their SHA-256 only.
CREATE TABLE "two_factor_recovery_codes" (
	"uid" text NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" bigint,
	CONSTRAINT "two_factor_recovery_codes_uid_code_hash_pk" PRIMARY KEY("uid","code_hash")
);
--> statement-breakpoint
ALTER TABLE "two_factor_recovery_codes" ADD CONSTRAINT "two_factor_recovery_codes_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- A sign-in waiting for its second step: the password (or SMS code, or provider) was right; no
-- session exists yet. Short-lived, single-use, a few wrong codes; kept hashed like sessions.
CREATE TABLE "two_factor_challenges" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"purpose" text NOT NULL,
	"next" text,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "two_factor_challenges_purpose_check" CHECK ("two_factor_challenges"."purpose" IN ('code', 'enrol'))
);
--> statement-breakpoint
ALTER TABLE "two_factor_challenges" ADD CONSTRAINT "two_factor_challenges_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "two_factor_challenges_uid_idx" ON "two_factor_challenges" USING btree ("uid");
--> statement-breakpoint
CREATE INDEX "two_factor_challenges_expires_at_idx" ON "two_factor_challenges" USING btree ("expires_at");
