CREATE TABLE "refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"provider" text NOT NULL,
	"transaction_id" text,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"provider_refund_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"confirmed_at" bigint,
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('requested', 'succeeded', 'failed')),
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "referral_bonuses" (
	"referred_uid" text PRIMARY KEY NOT NULL,
	"referrer_uid" text NOT NULL,
	"booking_id" text,
	"amount_minor" bigint NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "refund_amount_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_booking_key" ON "refunds" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "refunds_status_idx" ON "refunds" USING btree ("status");--> statement-breakpoint
-- A referred user paid at sign-up under the earlier rule, or whose first trip is already paid,
-- has had the chance of a bonus: it is not paid again.
INSERT INTO "referral_bonuses" ("referred_uid", "referrer_uid", "booking_id", "amount_minor", "at")
SELECT u."id", u."signup_via_referral", NULL, COALESCE(e."amount_minor", 0), COALESCE(e."at", u."created_at")
FROM "users" u
LEFT JOIN LATERAL (
	SELECT w."amount_minor", w."at" FROM "wallet_entries" w
	WHERE w."uid" = u."id" AND w."tx_ref" = 'ReferralBonus'
	ORDER BY w."id" LIMIT 1
) e ON true
WHERE u."signup_via_referral" IS NOT NULL
	AND (e."amount_minor" IS NOT NULL OR EXISTS (SELECT 1 FROM "bookings" b WHERE b."status" IN ('PAID', 'COMPLETE') AND (b."customer" = u."id" OR b."driver" = u."id")))
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- A database seeded with demo data before the marker existed keeps its test payment provider.
-- Only the seeder makes both of these accounts: sign-up cannot create admins or fleet admins.
INSERT INTO "server_secrets" ("name", "value")
SELECT 'demo_data', jsonb_build_object('seededAt', 'before issue 15')
WHERE EXISTS (SELECT 1 FROM "users" WHERE "email" = 'admin@rideway.demo' AND "usertype" = 'admin')
	AND EXISTS (SELECT 1 FROM "users" WHERE "email" = 'fleet@rideway.demo' AND "usertype" = 'fleetadmin')
ON CONFLICT DO NOTHING;
