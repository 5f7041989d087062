CREATE TABLE "auth_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"status" text NOT NULL,
	"car_type" text NOT NULL,
	"car_image" text,
	"customer" text NOT NULL,
	"customer_name" text NOT NULL,
	"customer_email" text DEFAULT '' NOT NULL,
	"customer_contact" text DEFAULT '' NOT NULL,
	"customer_token" text,
	"customer_image" text,
	"pickup" jsonb NOT NULL,
	"drop" jsonb NOT NULL,
	"estimate_minor" bigint NOT NULL,
	"estimate_distance" double precision NOT NULL,
	"distance" double precision DEFAULT 0 NOT NULL,
	"estimate_time" double precision NOT NULL,
	"book_later" boolean DEFAULT false NOT NULL,
	"tripdate" bigint NOT NULL,
	"booking_date" bigint NOT NULL,
	"otp" integer,
	"booking_type_admin" boolean DEFAULT false NOT NULL,
	"coords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"trip_cost_minor" bigint NOT NULL,
	"convenience_fees_minor" bigint NOT NULL,
	"driver_share_minor" bigint NOT NULL,
	"discount_minor" bigint DEFAULT 0 NOT NULL,
	"customer_paid_minor" bigint NOT NULL,
	"cash_payment_amount_minor" bigint DEFAULT 0 NOT NULL,
	"card_payment_amount_minor" bigint DEFAULT 0 NOT NULL,
	"used_wallet_money_minor" bigint DEFAULT 0 NOT NULL,
	"payable_amount_minor" bigint DEFAULT 0 NOT NULL,
	"payment_mode" text DEFAULT 'cash' NOT NULL,
	"prepaid" boolean DEFAULT false NOT NULL,
	"gateway" text,
	"promo_applied" boolean DEFAULT false NOT NULL,
	"promo_details" jsonb,
	"driver" text,
	"driver_name" text,
	"driver_image" text,
	"driver_contact" text,
	"driver_token" text,
	"vehicle_number" text,
	"driver_rating" double precision,
	"fleetadmin" text,
	"driver_arrive_time" bigint,
	"accepted_at" bigint,
	"trip_start_time" bigint,
	"trip_end_time" bigint,
	"total_trip_time" integer,
	"reason" text,
	"cancelled_by" text,
	"cancellation_charge_minor" bigint DEFAULT 0 NOT NULL,
	"rating" integer,
	"pickup_image" text,
	"deliver_image" text,
	"requested_drivers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"delivery" jsonb,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cancel_reasons" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"value" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "car_types" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"base_fare_minor" bigint NOT NULL,
	"rate_per_unit_distance_minor" bigint NOT NULL,
	"rate_per_hour_minor" bigint NOT NULL,
	"min_fare_minor" bigint NOT NULL,
	"convenience_fees_hundredths" bigint NOT NULL,
	"convenience_fee_type" text NOT NULL,
	"extra_info" text DEFAULT '' NOT NULL,
	"created_at" bigint NOT NULL,
	"parcel_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancel_slab" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chats" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"from_uid" text NOT NULL,
	"source" text NOT NULL,
	"message" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"run_at" bigint NOT NULL,
	"payload" jsonb NOT NULL,
	"locked_until" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"done_at" bigint
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"dir" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	"messages" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_key" text NOT NULL,
	"address" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"devicetype" text NOT NULL,
	"usertype" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" bigint NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otp_codes" (
	"verification_id" text PRIMARY KEY NOT NULL,
	"mobile" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	"delivered_at" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "promo_uses" (
	"promo_id" text NOT NULL,
	"uid" text NOT NULL,
	"booking_id" text NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "promo_uses_promo_id_uid_pk" PRIMARY KEY("promo_id","uid")
);
--> statement-breakpoint
CREATE TABLE "promos" (
	"id" text PRIMARY KEY NOT NULL,
	"promo_name" text NOT NULL,
	"promo_description" text DEFAULT '' NOT NULL,
	"promo_discount_type" text NOT NULL,
	"promo_discount_value_hundredths" bigint NOT NULL,
	"max_promo_discount_value_minor" bigint NOT NULL,
	"min_order_minor" bigint NOT NULL,
	"promo_validity" bigint NOT NULL,
	"promo_usage_limit" integer NOT NULL,
	"user_avail" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_addresses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"description" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"count" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"booking_id" text NOT NULL,
	"at" bigint NOT NULL,
	"status" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"mobile" text,
	"usertype" text NOT NULL,
	"login_type" text,
	"password_hash" text,
	"email_verified" boolean DEFAULT false NOT NULL,
	"approved" boolean DEFAULT true NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by_admin" boolean DEFAULT false NOT NULL,
	"referral_id" text,
	"signup_via_referral" text,
	"profile_image" text,
	"push_token" text,
	"user_platform" text,
	"fleetadmin" text,
	"driver_active_status" boolean DEFAULT false NOT NULL,
	"queue" boolean DEFAULT false NOT NULL,
	"location_lat" double precision,
	"location_lng" double precision,
	"location_at" bigint,
	"car_type" text,
	"vehicle_make" text,
	"vehicle_model" text,
	"vehicle_number" text,
	"other_info" text,
	"license_image" text,
	"ratings" jsonb,
	"bank_name" text,
	"bank_code" text,
	"bank_account" text,
	CONSTRAINT "users_usertype_check" CHECK ("users"."usertype" in ('rider', 'driver', 'admin', 'fleetadmin'))
);
--> statement-breakpoint
CREATE TABLE "wallet_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"type" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"tx_ref" text NOT NULL,
	"booking_id" text,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraws" (
	"id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"date" bigint NOT NULL,
	"name" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"processed" boolean DEFAULT false NOT NULL,
	"proces_date" bigint,
	"bank_name" text,
	"bank_code" text,
	"bank_account" text
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_uses" ADD CONSTRAINT "promo_uses_promo_id_promos_id_fk" FOREIGN KEY ("promo_id") REFERENCES "public"."promos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_addresses" ADD CONSTRAINT "saved_addresses_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking" ADD CONSTRAINT "tracking_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_entries" ADD CONSTRAINT "wallet_entries_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraws" ADD CONSTRAINT "withdraws_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_reference_key" ON "bookings" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "bookings_customer_idx" ON "bookings" USING btree ("customer");--> statement-breakpoint
CREATE INDEX "bookings_driver_idx" ON "bookings" USING btree ("driver");--> statement-breakpoint
CREATE INDEX "bookings_fleetadmin_idx" ON "bookings" USING btree ("fleetadmin");--> statement-breakpoint
CREATE INDEX "bookings_status_idx" ON "bookings" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_one_active_trip_per_driver" ON "bookings" USING btree ("driver") WHERE "bookings"."status" in ('ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED');--> statement-breakpoint
CREATE INDEX "cancel_reasons_value_idx" ON "cancel_reasons" USING btree ("value");--> statement-breakpoint
CREATE UNIQUE INDEX "car_types_name_key" ON "car_types" USING btree ("name");--> statement-breakpoint
CREATE INDEX "chats_booking_idx" ON "chats" USING btree ("booking_id","at");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("done_at","run_at");--> statement-breakpoint
CREATE INDEX "login_failures_account_idx" ON "login_failures" USING btree ("account_key","at");--> statement-breakpoint
CREATE INDEX "login_failures_address_idx" ON "login_failures" USING btree ("address","at");--> statement-breakpoint
CREATE INDEX "otp_codes_mobile_idx" ON "otp_codes" USING btree ("mobile","created_at");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("channel","delivered_at");--> statement-breakpoint
CREATE UNIQUE INDEX "promos_name_key" ON "promos" USING btree ("promo_name");--> statement-breakpoint
CREATE INDEX "saved_addresses_uid_idx" ON "saved_addresses" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "sessions_uid_idx" ON "sessions" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "tracking_booking_idx" ON "tracking" USING btree ("booking_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_mobile_key" ON "users" USING btree ("mobile");--> statement-breakpoint
CREATE UNIQUE INDEX "users_referral_id_key" ON "users" USING btree ("referral_id");--> statement-breakpoint
CREATE INDEX "users_usertype_idx" ON "users" USING btree ("usertype");--> statement-breakpoint
CREATE INDEX "users_fleetadmin_idx" ON "users" USING btree ("fleetadmin");--> statement-breakpoint
CREATE INDEX "wallet_entries_uid_idx" ON "wallet_entries" USING btree ("uid","at");--> statement-breakpoint
CREATE INDEX "withdraws_uid_idx" ON "withdraws" USING btree ("uid");