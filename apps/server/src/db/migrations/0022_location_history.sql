ALTER TABLE "bookings" ADD COLUMN "history_pruned_at" bigint;--> statement-breakpoint
CREATE INDEX "bookings_history_due_idx" ON "bookings" USING btree (coalesce("trip_end_time", "tripdate")) WHERE "history_pruned_at" is null;
