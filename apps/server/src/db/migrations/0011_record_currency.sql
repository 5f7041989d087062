-- Issue 17: each booking, wallet entry and withdraw records the currency it was made in, so a
-- later change of the settings' currency does not relabel history. Rows made before this migration
-- were made in the currency in force now (the settings' code; USD, the default, when none is stored).
ALTER TABLE "bookings" ADD COLUMN "currency" text;
--> statement-breakpoint
UPDATE "bookings" SET "currency" = coalesce((SELECT "value"->>'code' FROM "settings" WHERE "id" = 1), 'USD');
--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "currency" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD COLUMN "currency" text;
--> statement-breakpoint
UPDATE "wallet_entries" SET "currency" = coalesce((SELECT "value"->>'code' FROM "settings" WHERE "id" = 1), 'USD');
--> statement-breakpoint
ALTER TABLE "wallet_entries" ALTER COLUMN "currency" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "withdraws" ADD COLUMN "currency" text;
--> statement-breakpoint
UPDATE "withdraws" SET "currency" = coalesce((SELECT "value"->>'code' FROM "settings" WHERE "id" = 1), 'USD');
--> statement-breakpoint
ALTER TABLE "withdraws" ALTER COLUMN "currency" SET NOT NULL;
