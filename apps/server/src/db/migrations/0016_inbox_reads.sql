-- Issue 19: the in-app inbox is the push rows of the outbox; a user's read mark is kept on the row.
ALTER TABLE "outbox" ADD COLUMN "read_at" bigint;
--> statement-breakpoint
-- A user's latest push messages, and their unread count, without scanning other channels.
CREATE INDEX "outbox_inbox_idx" ON "outbox" USING btree ("recipient","id") WHERE "outbox"."channel" = 'push';
