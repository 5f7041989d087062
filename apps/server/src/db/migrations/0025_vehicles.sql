-- Issue 20 point 3: a driver's vehicles, each reviewed by an admin or the driver's fleet admin, one active at a time.
CREATE TABLE "vehicles" (
	"id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"car_type" text NOT NULL,
	"vehicle_make" text,
	"vehicle_model" text,
	"vehicle_number" text,
	"number_key" text,
	"image" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"reviewed_by" text,
	"reviewed_at" bigint,
	"active" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "vehicles_status_check" CHECK ("vehicles"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "vehicles_uid_idx" ON "vehicles" USING btree ("uid","created_at");
--> statement-breakpoint
CREATE INDEX "vehicles_status_idx" ON "vehicles" USING btree ("status","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_one_active" ON "vehicles" USING btree ("uid") WHERE "vehicles"."active";
--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_number_key" ON "vehicles" USING btree ("uid","number_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_image_key" ON "vehicles" USING btree ("image");
--> statement-breakpoint
-- Every driver that has a car keeps driving it: one approved, active vehicle with its fields.
INSERT INTO "vehicles" ("id", "uid", "car_type", "vehicle_make", "vehicle_model", "vehicle_number", "number_key", "status", "reviewed_by", "reviewed_at", "active", "created_at")
SELECT gen_random_uuid()::text, "id", "car_type", "vehicle_make", "vehicle_model", "vehicle_number",
	nullif(upper(regexp_replace("vehicle_number", '[[:space:]-]+', '', 'g')), ''), 'approved', 'migration', "created_at", true, "created_at"
FROM "users" WHERE "usertype" = 'driver' AND "car_type" IS NOT NULL;
