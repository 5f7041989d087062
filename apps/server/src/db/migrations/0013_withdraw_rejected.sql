ALTER TABLE "withdraws" ADD COLUMN "rejected" boolean DEFAULT false NOT NULL;
