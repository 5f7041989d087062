-- Issue 20 point 2: a deleted account is anonymised, not removed, so its bookings, ledger entries
-- and withdraws stay for the books; the moment it was deleted marks the row.
ALTER TABLE "users" ADD COLUMN "deleted_at" bigint;
