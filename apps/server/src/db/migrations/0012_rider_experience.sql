ALTER TABLE "bookings" ADD COLUMN "rating_comment" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "fare_breakdown" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "vehicle_make" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "vehicle_model" text;
