-- Issue 20 point 3: a registration and an insurance belong to one of the driver's vehicles; the licence and ID to the driver.
ALTER TABLE "driver_documents" ADD COLUMN "vehicle_id" text;
--> statement-breakpoint
ALTER TABLE "driver_documents" ADD CONSTRAINT "driver_documents_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "driver_documents_vehicle_idx" ON "driver_documents" USING btree ("vehicle_id","kind","created_at");
--> statement-breakpoint
-- Papers sent before vehicles had their own were for the car the driver drives: its active vehicle,
-- or, when none is active (its active one was rejected), its newest vehicle. A driver with no vehicle
-- keeps them unattached: they count for no car.
UPDATE "driver_documents" SET "vehicle_id" = (
	SELECT "v"."id" FROM "vehicles" "v" WHERE "v"."uid" = "driver_documents"."uid"
	ORDER BY "v"."active" DESC, "v"."created_at" DESC, "v"."id" DESC LIMIT 1
) WHERE "kind" IN ('registration', 'insurance');
--> statement-breakpoint
ALTER TABLE "driver_documents" ADD CONSTRAINT "driver_documents_vehicle_check" CHECK ("driver_documents"."vehicle_id" is null or "driver_documents"."kind" in ('registration', 'insurance'));
