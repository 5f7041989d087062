/**
 * Stripe's errors sorted as Medusa's payment-stripe sorts them (STYLE.md, adapters): what to ask
 * again, what is unknown until the webhook or a lookup says, and what Stripe refused.
 * From https://docs.stripe.com/api/errors and https://docs.stripe.com/error-handling: 400 bad
 * request, 401 no valid key, 402 request failed (a card error: `card_declined`,
 * `authentication_required`, ...), 403 forbidden, 404 not found, 409 conflict (an idempotency key
 * in use), 429 too many requests, 5xx Stripe's servers. The SDK turns each into its error class
 * (`StripeCardError` for 402, `StripeAPIError` for 5xx, 409 and an answer that is not JSON,
 * `StripeConnectionError` for a timeout or a lost connection); their `type` names the class.
 *
 * No message built here carries the secret key, the webhook secret or the SDK's error (its
 * request and headers): Stripe masks keys in its own messages, and anything that looks like a
 * key is masked again here in case a proxy echoes one.
 */

export type StripeFailure =
  /** The outcome is unknown or the call may be made again: network, timeout, 5xx, 409, 429, an answer that is not Stripe's. */
  | { kind: 'unavailable'; message: string }
  /** The card was refused (402): `code` is Stripe's error code, `declineCode` the issuer's reason. */
  | { kind: 'card'; message: string; code: string; declineCode?: string }
  /** Stripe refused the request itself: bad parameters, an unknown object, a bad or restricted key. */
  | { kind: 'refused'; message: string; code?: string; statusCode?: number; authentication: boolean };

const KEY_LIKE = /\b(sk|rk|pk|whsec)_(test_|live_)?[A-Za-z0-9_*]+/g;

/** Masks anything shaped like a Stripe key or signing secret. */
export const maskSecrets = (text: string): string => text.replace(KEY_LIKE, (_match, kind: string, mode: string | undefined) => `${kind}_${mode ?? ''}[redacted]`);

type StripeErrorLike = { type?: unknown; statusCode?: unknown; code?: unknown; decline_code?: unknown; message?: unknown; raw?: unknown };

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function classifyStripeError(error: unknown): StripeFailure {
  const e = (typeof error === 'object' && error !== null ? error : {}) as StripeErrorLike;
  const type = text(e.type) ?? '';
  const statusCode = typeof e.statusCode === 'number' ? e.statusCode : undefined;
  const code = text(e.code);
  const stripeMessage = maskSecrets(text(e.message) ?? 'no message');
  const label = [statusCode, code].filter((part) => part !== undefined).join(' ');
  const describe = (what: string) => `stripe: ${what}${label ? ` (${label})` : ''}: ${stripeMessage}`;
  switch (type) {
    case 'StripeConnectionError':
      return { kind: 'unavailable', message: describe('no answer') };
    case 'StripeAPIError':
    case 'StripeRateLimitError':
      return { kind: 'unavailable', message: describe(type === 'StripeRateLimitError' ? 'too many requests' : 'server error or unreadable answer') };
    case 'StripeCardError':
      return { kind: 'card', message: describe('card refused'), code: code ?? 'card_declined', ...(text(e.decline_code) ? { declineCode: text(e.decline_code) } : {}) };
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return { kind: 'refused', message: describe('the API key was refused'), code, statusCode, authentication: true };
    case 'StripeInvalidRequestError':
    case 'StripeIdempotencyError':
      return { kind: 'refused', message: describe('request refused'), code, statusCode, authentication: false };
    default:
      // Not an error of the SDK's: a bug, or something between us and Stripe. Its message is not passed on.
      return { kind: 'unavailable', message: `stripe: the call failed (${error instanceof Error ? error.name : typeof error})` };
  }
}
