// TRANSITION: account rows live in modules/accounts; this path stays for importers outside the
// account modules (test harness and API tests, seed, bookings, compat) until they are repointed.
export * from '../accounts/accounts';
