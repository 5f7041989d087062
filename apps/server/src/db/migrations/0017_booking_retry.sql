ALTER TABLE "bookings" ADD COLUMN "retried_as" text;
