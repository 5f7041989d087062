-- Issue 19: promotional notifications can be turned off (trip notices always go).
ALTER TABLE "users" ADD COLUMN "promo_notifications" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- How many devices of each kind (webpush, fcm, expo) an admin's notification was addressed to.
ALTER TABLE "notifications" ADD COLUMN "devices" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
-- One row per device a push message from the outbox reached: a retry skips the devices already served.
CREATE TABLE "push_deliveries" (
	"outbox_id" bigint NOT NULL,
	"device" text NOT NULL,
	"kind" text NOT NULL,
	"notification_id" text,
	"ticket" text,
	"receipt_checked_at" bigint,
	"delivered_at" bigint NOT NULL,
	CONSTRAINT "push_deliveries_outbox_id_device_pk" PRIMARY KEY("outbox_id","device")
);
--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "push_deliveries_notification_idx" ON "push_deliveries" USING btree ("notification_id");
--> statement-breakpoint
CREATE INDEX "push_deliveries_receipt_idx" ON "push_deliveries" USING btree ("delivered_at") WHERE "ticket" IS NOT NULL AND "receipt_checked_at" IS NULL;
