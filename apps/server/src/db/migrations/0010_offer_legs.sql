ALTER TABLE "bookings" ADD COLUMN "offer_legs" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "offer_expires_at" bigint;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "declined_drivers" jsonb DEFAULT '[]'::jsonb NOT NULL;
