-- Issue 22: a refund the provider's API cannot make (PayFast) waits for an admin to refund it in the
-- provider's dashboard and confirm it here; the confirming admin is kept.
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_status_check";
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "confirmed_by" text;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('requested', 'awaiting_dashboard', 'succeeded', 'failed'));
