// TRANSITION: password hashing lives in modules/accounts; this path stays for importers outside
// the account modules (test harness, seed) until they are repointed.
export * from '../accounts/passwords';
