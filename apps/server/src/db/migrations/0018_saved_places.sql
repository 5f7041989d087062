-- Issue 17 point 12: what a rider calls a saved place: one of two labels, or a name of their own.
ALTER TABLE "saved_addresses" ADD COLUMN "label" text;
--> statement-breakpoint
ALTER TABLE "saved_addresses" ADD COLUMN "name" text;
--> statement-breakpoint
ALTER TABLE "saved_addresses" ADD CONSTRAINT "saved_addresses_label_check" CHECK ("saved_addresses"."label" IS NULL OR "saved_addresses"."label" IN ('home', 'work'));
--> statement-breakpoint
-- Home and Work at most once per rider, however many requests race for them.
CREATE UNIQUE INDEX "saved_addresses_uid_label_key" ON "saved_addresses" USING btree ("uid","label") WHERE "saved_addresses"."label" IS NOT NULL;
