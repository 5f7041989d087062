/** The browser tests' servers: the platform, the fake Facebook beside it, and a second platform for demo mode. */
export const PORT = Number(process.env.E2E_PORT ?? 3210);
export const FACEBOOK_PORT = PORT + 1;
/** Demo mode (section 6) cannot be left from the API, so it gets a platform of its own. */
export const DEMO_PORT = PORT + 2;
/** A platform of its own whose map tiles come from a local tile server (issue 15, point 14). */
export const TILES_PORT = PORT + 3;
/** A platform of its own with Stripe configured against the local Stripe stand-in (issue 18). */
export const STRIPE_PORT = PORT + 4;
/** A platform of its own with PayPal configured against the local PayPal stand-in (issue 18). */
export const PAYPAL_PORT = PORT + 5;
/** A platform of its own whose SMS go through Twilio, pointed at a local Twilio stand-in: phone sign-in end to end (issue 19). */
export const SMS_PORT = PORT + 6;
/** A platform of its own whose nobody-took-it timer is seconds, not minutes: the book flow's no-driver state and retry (issue 17). */
export const BOOK_FLOW_PORT = PORT + 7;
/** A platform of its own with MAPS_PROVIDER=google against the local Google stand-in: Google's map and Places sessions (issue 16). */
export const GOOGLE_MAPS_PORT = PORT + 9;
/** The local Google OpenID provider the platform's Google sign-in is pointed at (issue 20). */
export const GOOGLE_OIDC_PORT = PORT + 10;
/** A platform of its own with the hosted-page payment providers (Paystack, Flutterwave) against their local stand-ins (issue 22). */
export const HOSTED_PAYMENTS_PORT = PORT + 12;
