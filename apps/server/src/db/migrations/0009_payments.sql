CREATE TABLE "payment_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"purpose" text NOT NULL,
	"reference" text NOT NULL,
	"uid" text NOT NULL,
	"kind" text DEFAULT 'checkout' NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"checkout_id" text,
	"status" text NOT NULL,
	"save_card" boolean DEFAULT false NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "payment_attempts_status_check" CHECK ("payment_attempts"."status" in ('open', 'succeeded', 'failed', 'expired', 'error'))
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"source" text NOT NULL,
	"reference" text,
	"transaction_id" text,
	"amount_minor" bigint,
	"currency" text,
	"outcome" text NOT NULL,
	"detail" text,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_cards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"provider" text NOT NULL,
	"customer_id" text NOT NULL,
	"payment_method_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topups" (
	"id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"provider" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"transaction_id" text,
	"created_at" bigint NOT NULL,
	"credited_at" bigint,
	CONSTRAINT "topups_status_check" CHECK ("topups"."status" in ('pending', 'credited', 'failed')),
	CONSTRAINT "topups_amount_check" CHECK ("topups"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "kind" text DEFAULT 'cancel' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_kind_check" CHECK ("refunds"."kind" in ('cancel', 'admin', 'unapplied'));--> statement-breakpoint
DROP INDEX "refunds_booking_key";--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_booking_cancel_key" ON "refunds" USING btree ("booking_id") WHERE "refunds"."kind" = 'cancel';--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_unapplied_key" ON "refunds" USING btree ("booking_id","transaction_id") WHERE "refunds"."kind" = 'unapplied';--> statement-breakpoint
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topups" ADD CONSTRAINT "topups_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_checkout_key" ON "payment_attempts" USING btree ("provider","checkout_id");--> statement-breakpoint
CREATE INDEX "payment_attempts_open_idx" ON "payment_attempts" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "payment_attempts_reference_idx" ON "payment_attempts" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_provider_event_key" ON "payment_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "payment_events_received_idx" ON "payment_events" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_cards_method_key" ON "saved_cards" USING btree ("provider","payment_method_id");--> statement-breakpoint
CREATE INDEX "saved_cards_uid_idx" ON "saved_cards" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "topups_uid_idx" ON "topups" USING btree ("uid","created_at");
