-- Issue 19: the language a user reads messages in (push, SMS, mail); null means the default (English).
ALTER TABLE "users" ADD COLUMN "language" text;
--> statement-breakpoint
-- Issue 19: when delivery of a message was given up (a permanent refusal, or every attempt used): shown to admins.
ALTER TABLE "outbox" ADD COLUMN "failed_at" bigint;
