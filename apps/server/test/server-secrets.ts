/**
 * The secrets a server process on a real database or with Redis must be given (config.ts,
 * configProblems; issue 23 point 3), for the tests that start one: fixed test values, never a
 * deployment's.
 */
export const SERVER_SECRETS = { PAYMENT_SECRET: 'test-only-payment-secret-0123456789', TWO_FACTOR_KEY: '0123456789abcdef'.repeat(4) } as const;
