/**
 * Security-critical: holds Braintree's private key. The key goes to the SDK only, which sends it
 * as HTTP Basic auth (public:private) and keys webhook signatures with SHA-1 of it; nothing here
 * logs it, and every message that leaves this file is scrubbed of it (`scrub`).
 */
import type braintree from 'braintree';
import type { Config } from '../../config';
import { ProviderUnavailableError } from './port';

export type BraintreeConfig = Pick<
  Config,
  'BRAINTREE_MERCHANT_ID' | 'BRAINTREE_PUBLIC_KEY' | 'BRAINTREE_PRIVATE_KEY' | 'BRAINTREE_ENVIRONMENT' | 'BRAINTREE_API_URL' | 'PAYMENT_TIMEOUT_MS'
>;

/** True when Braintree is configured (its merchant id and both API keys; config.ts requires the three together). */
export function isBraintreeConfigured(config: Pick<Config, 'BRAINTREE_MERCHANT_ID' | 'BRAINTREE_PUBLIC_KEY' | 'BRAINTREE_PRIVATE_KEY'>): boolean {
  return Boolean(config.BRAINTREE_MERCHANT_ID && config.BRAINTREE_PUBLIC_KEY && config.BRAINTREE_PRIVATE_KEY);
}

/**
 * The gateway the SDK calls. The SDK's host is fixed per Environment (Sandbox:
 * api.sandbox.braintreegateway.com:443, Production: api.braintreegateway.com:443, see
 * node_modules/braintree/lib/braintree/environment.js), but an Environment is a plain
 * `new Environment(server, port, authUrl, ssl, graphQLServer, graphQLPort)` and the SDK's http.js
 * connects to `environment.server` and `environment.port` over http or https per `ssl`. So
 * BRAINTREE_API_URL (tests: the local stand-in over http) becomes such an Environment: the
 * SDK's own HTTP client reaches the stand-in, no interceptor. The GraphQL and auth addresses are
 * never called by this adapter (transactions, client tokens and searches are the XML API).
 */
export async function braintreeGateway(config: BraintreeConfig): Promise<braintree.BraintreeGateway> {
  // The SDK loads with the first call, so a server without Braintree never holds it (issue 21 point 4).
  const { default: sdk } = await import('braintree');
  const { BRAINTREE_MERCHANT_ID: merchantId, BRAINTREE_PUBLIC_KEY: publicKey, BRAINTREE_PRIVATE_KEY: privateKey } = config;
  if (!merchantId || !publicKey || !privateKey) throw new Error('braintree: BRAINTREE_MERCHANT_ID, BRAINTREE_PUBLIC_KEY and BRAINTREE_PRIVATE_KEY are required');
  const environment = config.BRAINTREE_API_URL
    ? customEnvironment(sdk, config.BRAINTREE_API_URL)
    : config.BRAINTREE_ENVIRONMENT === 'production'
      ? sdk.Environment.Production
      : sdk.Environment.Sandbox;
  const gateway = new sdk.BraintreeGateway({ environment, merchantId, publicKey, privateKey });
  // The SDK's Config fixes 60 s and takes no option for it; its http.js reads `config.timeout` on every request.
  (gateway.config as { timeout: number }).timeout = config.PAYMENT_TIMEOUT_MS;
  return gateway;
}

function customEnvironment(sdk: typeof braintree, address: string): braintree.Environment {
  const url = new URL(address);
  const ssl = url.protocol === 'https:';
  const port = url.port || (ssl ? '443' : '80');
  return new sdk.Environment(url.hostname, port, `${url.protocol}//${url.host}`, ssl, url.hostname, port);
}

/** The SDK's error types (node_modules/braintree/lib/braintree/error_types.js) whose outcome is unknown. */
const UNKNOWN_OUTCOME = new Set([
  // timeouts ("Request timed out"), network errors ("Unexpected request error"), other HTTP statuses (502...)
  'unexpectedError',
  'serverError', // 500
  'serviceUnavailableError', // 503
  'gatewayTimeoutError', // 504
  'requestTimeoutError', // 408
  'tooManyRequestsError', // 429
]);

/** Removes the private key (and the Basic credentials built from it) from a message. */
export function scrub(message: string, config: Pick<Config, 'BRAINTREE_PUBLIC_KEY' | 'BRAINTREE_PRIVATE_KEY'>): string {
  const secret = config.BRAINTREE_PRIVATE_KEY;
  if (!secret) return message;
  const basic = Buffer.from(`${config.BRAINTREE_PUBLIC_KEY ?? ''}:${secret}`).toString('base64');
  return message.split(basic).join('[redacted]').split(secret).join('[redacted]');
}

/** The SDK's error type (`err.type`), or undefined for anything else (an XML parse error: no type). */
function errorType(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'type' in error && typeof error.type === 'string') return error.type;
  return undefined;
}

/** True when the SDK's call failed with an unknown outcome: the network, a timeout, a 5xx, a 429, or an answer it could not read. */
export function isUnknownOutcome(error: unknown): boolean {
  const type = errorType(error);
  return type === undefined || UNKNOWN_OUTCOME.has(type);
}

/**
 * An SDK failure as this port's error: unknown outcomes become ProviderUnavailableError (the
 * lookup job settles them), refusals (401, 403, 404, 426, invalid keys) a plain Error. Neither
 * message holds the private key.
 */
export function providerError(error: unknown, action: string, config: Pick<Config, 'BRAINTREE_PUBLIC_KEY' | 'BRAINTREE_PRIVATE_KEY'>): Error {
  const type = errorType(error) ?? 'unreadable answer';
  const detail = error instanceof Error ? error.message : String(error);
  const message = scrub(`braintree: ${action}: ${type}: ${detail}`, config);
  return isUnknownOutcome(error) ? new ProviderUnavailableError('braintree', message) : new Error(message);
}
