/**
 * For the payment adapters' unit tests: `failure` awaits a call that must fail and keeps its
 * message and stack in `messages`, so a test can show that no secret ever reaches them; `key`
 * makes a new idempotency key per call.
 */
export function failureLog(): { messages: string[]; failure: (promise: Promise<unknown>) => Promise<Error>; key: () => string } {
  const messages: string[] = [];
  let keys = 0;
  return {
    messages,
    async failure(promise) {
      try {
        await promise;
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        messages.push(error.message, String(error.stack));
        return error;
      }
      throw new Error('expected a failure');
    },
    key: () => `idem-${String(++keys)}-${String(Date.now())}`,
  };
}
