CREATE TABLE "idempotency_keys" (
	"uid" text NOT NULL,
	"key" text NOT NULL,
	"endpoint" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"owner" text NOT NULL,
	"locked_at" bigint NOT NULL,
	"status_code" integer,
	"content_type" text,
	"response" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "idempotency_keys_uid_key_pk" PRIMARY KEY("uid","key"),
	CONSTRAINT "idempotency_keys_state_check" CHECK ("idempotency_keys"."state" in ('in_flight', 'committed', 'done'))
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");
