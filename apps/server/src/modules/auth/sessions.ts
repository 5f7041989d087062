// TRANSITION: sessions live in modules/accounts; this path stays for importers outside the
// account modules (http/actor, http/session-cache, test harness) until they are repointed.
export * from '../accounts/sessions';
