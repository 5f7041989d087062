-- Issue 20 point 3: drivers' documents with their expiry day, reviewed by an admin or the driver's fleet admin.
CREATE TABLE "driver_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"kind" text NOT NULL,
	"image" text NOT NULL,
	"expires_on" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"reviewed_by" text,
	"reviewed_at" bigint,
	"created_at" bigint NOT NULL,
	"reminded_30_at" bigint,
	"reminded_7_at" bigint,
	"expiry_handled_at" bigint,
	CONSTRAINT "driver_documents_kind_check" CHECK ("driver_documents"."kind" in ('licence_front', 'licence_back', 'id', 'registration', 'insurance')),
	CONSTRAINT "driver_documents_status_check" CHECK ("driver_documents"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "driver_documents_expires_on_check" CHECK ("driver_documents"."expires_on" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
);
--> statement-breakpoint
ALTER TABLE "driver_documents" ADD CONSTRAINT "driver_documents_uid_users_id_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "driver_documents_uid_idx" ON "driver_documents" USING btree ("uid","kind","created_at");
--> statement-breakpoint
CREATE INDEX "driver_documents_status_idx" ON "driver_documents" USING btree ("status","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "driver_documents_image_key" ON "driver_documents" USING btree ("image");
