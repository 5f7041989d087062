import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startFlutterwave, type FlutterwaveStandIn } from '../../apps/server/test/stand-ins/flutterwave';
import { startLiqpay, type LiqpayStandIn } from '../../apps/server/test/stand-ins/liqpay';
import { startPaytm, type PaytmStandIn } from '../../apps/server/test/stand-ins/paytm';
import { startPaystack, type PaystackStandIn } from '../../apps/server/test/stand-ins/paystack';
import { startPayfast, type PayfastStandIn } from '../../apps/server/test/stand-ins/payfast';
import { startPayulatam, type PayuStandIn } from '../../apps/server/test/stand-ins/payulatam';
import { startMercadoPago, type MercadoPagoStandIn } from '../../apps/server/test/stand-ins/mercadopago';
import { startCulqi, type CulqiStandIn } from '../../apps/server/test/stand-ins/culqi';
import { startSecurePay, type SecurePayStandIn } from '../../apps/server/test/stand-ins/securepay';
import { startPlatform } from '../support/platform';
import { HOSTED_PAYMENTS_PORT } from '../support/ports';
import { apiSignIn, signIn } from '../support/session';
import { pendingCardTrip } from '../support/trips';

/**
 * Issue 22's browser test: one test, parametrised over the providers whose checkout is a hosted
 * page (the local stand-in's), the embedded test provider included. On a platform of its own with
 * every such provider configured against its stand-in, a rider pays one card trip through each
 * provider's page and comes back to the booking paid.
 */
const origin = `http://127.0.0.1:${String(HOSTED_PAYMENTS_PORT)}`;
test.use({ baseURL: origin });

let paystack: PaystackStandIn;
let payfast: PayfastStandIn;
let payulatam: PayuStandIn;
let flutterwave: FlutterwaveStandIn;
let mercadopago: MercadoPagoStandIn;
let culqi: CulqiStandIn;
let securepay: SecurePayStandIn;
let liqpay: LiqpayStandIn;
let paytm: PaytmStandIn;
let platform: { stop: () => void } | undefined;

test.beforeAll(async () => {
  paystack = await startPaystack();
  payfast = await startPayfast();
  payulatam = await startPayulatam();
  flutterwave = await startFlutterwave();
  mercadopago = await startMercadoPago();
  culqi = await startCulqi();
  securepay = await startSecurePay();
  liqpay = await startLiqpay();
  paytm = await startPaytm();
  paytm.webhookUrl = `${origin}/api/payments/paytm/webhook`;
  platform = await startPlatform(HOSTED_PAYMENTS_PORT, {
    PAYSTACK_SECRET_KEY: paystack.secretKey,
    PAYSTACK_API_URL: paystack.url,
    PAYFAST_MERCHANT_ID: payfast.merchantId,
    PAYFAST_MERCHANT_KEY: payfast.merchantKey,
    PAYFAST_PASSPHRASE: payfast.passphrase,
    PAYFAST_API_URL: payfast.url,
    PAYULATAM_API_KEY: payulatam.apiKey,
    PAYULATAM_API_LOGIN: payulatam.apiLogin,
    PAYULATAM_MERCHANT_ID: payulatam.merchantId,
    PAYULATAM_ACCOUNT_ID: payulatam.accountId,
    PAYULATAM_TEST: '1',
    PAYULATAM_API_URL: payulatam.url,
    FLUTTERWAVE_SECRET_KEY: flutterwave.secretKey,
    FLUTTERWAVE_SECRET_HASH: flutterwave.secretHash,
    FLUTTERWAVE_API_URL: flutterwave.url,
    MERCADOPAGO_ACCESS_TOKEN: mercadopago.accessToken,
    MERCADOPAGO_WEBHOOK_SECRET: mercadopago.webhookSecret,
    MERCADOPAGO_API_URL: mercadopago.url,
    CULQI_PUBLIC_KEY: culqi.publicKey,
    CULQI_SECRET_KEY: culqi.secretKey,
    CULQI_API_URL: culqi.url,
    // Culqi Checkout's own script cannot run here (its widget works only on Culqi's domains): a local address stands for it.
    CULQI_CHECKOUT_SCRIPT_URL: `${culqi.url}/js/v4`,
    SECUREPAY_CLIENT_ID: securepay.clientId,
    SECUREPAY_CLIENT_SECRET: securepay.clientSecret,
    SECUREPAY_MERCHANT_CODE: securepay.merchantCode,
    SECUREPAY_SANDBOX: '1',
    // SecurePay's card component is loaded from the API host: the stand-in's address stands for it (its own script runs only on SecurePay's hosts).
    SECUREPAY_API_URL: securepay.url,
    SECUREPAY_AUTH_URL: securepay.authUrl,
    LIQPAY_PUBLIC_KEY: liqpay.publicKey,
    LIQPAY_PRIVATE_KEY: liqpay.privateKey,
    LIQPAY_API_URL: liqpay.apiUrl,
    PAYTM_MERCHANT_ID: paytm.mid,
    PAYTM_MERCHANT_KEY: paytm.merchantKey,
    PAYTM_WEBSITE: 'WEBSTAGING',
    PAYTM_API_URL: paytm.url,
    PAYMENT_TIMEOUT_MS: '5000',
    PUBLIC_URL: origin,
  });
});

test.afterAll(async () => {
  platform?.stop();
  await paystack.close();
  await payfast.close();
  await payulatam.close();
  await flutterwave.close();
  await mercadopago.close();
  await culqi.close();
  await securepay.close();
  await liqpay.close();
  await paytm.close();
});

type HostedProvider = {
  name: string;
  label: string;
  /** A settings currency the provider takes (the demo's GBP is not one of Paystack's). */
  currency: { code: string; symbol: string };
  /** Pays on the provider's page; the browser is sent back to the platform. */
  pay: (page: Page, amount: string) => Promise<void>;
  /** What the provider recorded for this booking's payment. */
  check?: (bookingId: string, amount: string) => void;
};

const shot = (provider: string, name: string) => `screenshots/hosted-${provider}-${name}-1280.png`;

const PROVIDERS: HostedProvider[] = [
  {
    // A form post: our page posts PayFast's signed form to /eng/process; PayFast sends its ITN (validated back), then the rider to return_url.
    name: 'payfast',
    label: 'PayFast',
    currency: { code: 'ZAR', symbol: 'R' },
    pay: async (page, amount) => {
      await page.waitForURL(`${payfast.url}/eng/process`);
      await expect(page.locator('#total')).toHaveText(`R ${amount}`);
      await page.screenshot({ path: shot('payfast', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay R ${amount}` }).click();
    },
    check: (bookingId, amount) => {
      const taken = [...payfast.payments.values()].filter((payment) => payment.fields.custom_str1 === bookingId);
      expect(taken.map((payment) => [payment.status, payment.fields.amount])).toEqual([['COMPLETE', amount]]);
      expect(payfast.validations.length).toBeGreaterThan(0);
    },
  },
  {
    // A form post: our page posts the signed WebCheckout form; PayU posts the confirmation page, then the rider to responseUrl (looked up with the Queries API).
    name: 'payulatam',
    label: 'PayU Latam',
    currency: { code: 'COP', symbol: '$' },
    pay: async (page, amount) => {
      await page.waitForURL(`${payulatam.url}/ppp-web-gateway-payu/`);
      await expect(page.locator('#total')).toHaveText(`COP ${amount}`);
      await page.screenshot({ path: shot('payulatam', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay COP ${amount}` }).click();
    },
    check: (bookingId, amount) => {
      const taken = [...payulatam.orders.values()].filter((order) => order.referenceCode.startsWith(`${bookingId}.`));
      expect(taken.map((order) => [order.transactions.map((transaction) => transaction.state), order.amount, order.currency])).toEqual([[['APPROVED'], amount, 'COP']]);
    },
  },
  {
    name: 'test',
    label: 'Test provider',
    currency: { code: 'USD', symbol: '$' },
    pay: async (page, amount) => {
      await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
      await expect(page.locator('.amount')).toHaveText(`${amount} USD`);
      await page.screenshot({ path: shot('test', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page.locator('#payment-result')).toHaveText('Payment received');
      await page.getByRole('link', { name: 'Back to your bookings' }).click();
    },
  },
  {
    name: 'paystack',
    label: 'Paystack',
    currency: { code: 'USD', symbol: '$' },
    pay: async (page, amount) => {
      await page.waitForURL(`${paystack.url}/checkout/*`);
      await expect(page.locator('#total')).toHaveText(`USD ${amount}`);
      await page.screenshot({ path: shot('paystack', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay USD ${amount}` }).click();
    },
    check: (bookingId, amount) => {
      const paid = [...paystack.transactions.values()].filter((transaction) => (transaction.metadata as { rideway_reference?: string } | null)?.rideway_reference === bookingId);
      expect(paid.map((transaction) => [transaction.status, transaction.amount, transaction.currency])).toEqual([['success', Math.round(Number(amount) * 100), 'USD']]);
    },
  },
  {
    name: 'flutterwave',
    label: 'Flutterwave',
    currency: { code: 'USD', symbol: '$' },
    pay: async (page, amount) => {
      // Flutterwave takes the amount as a JSON number in dollars: 12.5, not 12.50.
      const total = `USD ${String(Number(amount))}`;
      await page.waitForURL(`${flutterwave.url}/v3/hosted/pay/*`);
      await expect(page.locator('#total')).toHaveText(total);
      await page.screenshot({ path: shot('flutterwave', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay ${total}` }).click();
    },
    check: (bookingId, amount) => {
      const taken = [...flutterwave.transactions.values()].filter((transaction) => (transaction.meta as { rideway_reference?: string } | null)?.rideway_reference === bookingId);
      expect(taken.map((transaction) => [transaction.status, transaction.amount, transaction.currency])).toEqual([['successful', Number(amount), 'USD']]);
    },
  },
  {
    name: 'mercadopago',
    label: 'Mercado Pago',
    currency: { code: 'MXN', symbol: '$' },
    pay: async (page, amount) => {
      // Checkout Pro's unit_price is a JSON number in pesos: 12.5, not 12.50.
      const total = `MXN ${String(Number(amount))}`;
      await page.waitForURL(`${mercadopago.url}/sandbox/checkout/v1/redirect?pref_id=*`);
      await expect(page.locator('#total')).toHaveText(total);
      await page.screenshot({ path: shot('mercadopago', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay ${total}` }).click();
    },
    check: (bookingId, amount) => {
      const taken = [...mercadopago.payments.values()].filter((payment) => payment.externalReference === bookingId);
      expect(taken.map((payment) => [payment.status, payment.transactionAmount, payment.currency])).toEqual([['approved', Number(amount), 'MXN']]);
    },
  },
  {
    // A form post: our page posts LiqPay's signed data to its checkout; LiqPay calls the server_url back, then sends the rider to result_url.
    name: 'liqpay',
    label: 'LiqPay',
    currency: { code: 'USD', symbol: '$' },
    pay: async (page, amount) => {
      await page.waitForURL(`${liqpay.apiUrl}/3/checkout`);
      await expect(page.locator('#total')).toHaveText(`${amount} USD`);
      await page.screenshot({ path: shot('liqpay', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay ${amount} USD` }).click();
    },
    check: (bookingId, amount) => {
      const taken = [...liqpay.payments.values()].filter((order) => order.orderId.startsWith(`${bookingId}.`));
      expect(taken.map((order) => [order.status, order.amount, order.currency])).toEqual([['sandbox', Number(amount), 'USD']]);
    },
  },
  {
    // Initiate Transaction, then a form post of mid, orderId and txnToken; Paytm posts the browser back (its callbackUrl) and sends its webhook.
    name: 'paytm',
    label: 'Paytm',
    currency: { code: 'INR', symbol: '₹' },
    pay: async (page, amount) => {
      await page.waitForURL(`${paytm.url}/theia/api/v1/showPaymentPage?*`);
      await expect(page.locator('#total')).toHaveText(`₹${amount}`);
      await page.screenshot({ path: shot('paytm', 'page'), animations: 'disabled' });
      await page.getByRole('button', { name: `Pay ₹${amount}` }).click();
    },
    check: (bookingId, amount) => {
      const taken = [...paytm.orders.values()].filter((order) => order.orderId.startsWith(`${bookingId}.`));
      expect(taken.map((order) => [order.status, order.amount, order.currency])).toEqual([['TXN_SUCCESS', amount, 'INR']]);
    },
  },
];

async function useCurrency(request: APIRequestContext, currency: { code: string; symbol: string }) {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const saved = await request.patch('/api/settings', { headers: admin, data: currency });
  expect(saved.status(), await saved.text()).toBe(200);
}

for (const provider of PROVIDERS) {
  test(`a rider pays a card trip through ${provider.label}'s hosted page and comes back paid`, async ({ page, request }) => {
    await useCurrency(request, provider.currency);
    const booking = await pendingCardTrip(request, 'rider1@rideway.demo');
    expect(booking.status).toBe('PENDING');
    const amount = booking.customer_paid.toFixed(2);
    await signIn(page, 'rider1@rideway.demo');

    await page.goto('/bookings');
    const card = page.locator(`[data-booking="${booking.id}"]`);
    await expect(card).toContainText('Payment due');
    await card.getByRole('button', { name: 'Pay now' }).click();
    const chooser = page.getByRole('dialog', { name: 'Choose how to pay' });
    await chooser.getByRole('button', { name: `Pay with ${provider.label}` }).click();

    await provider.pay(page, amount);

    if (provider.name === 'test') {
      await expect(page).toHaveURL(`${origin}/bookings`);
      await expect(page.locator(`[data-booking="${booking.id}"]`)).toContainText('Paid');
    } else {
      await page.waitForURL(`${origin}/bookings/${booking.id}?payment=paid`);
      await expect(page.getByRole('alert').filter({ hasText: 'Payment received. Thank you!' })).toBeVisible();
    }
    await page.screenshot({ path: shot(provider.name, 'paid'), animations: 'disabled', fullPage: true });

    const paid = await (await request.get(`/api/bookings/${booking.id}`, { headers: await apiSignIn(request, 'rider1@rideway.demo') })).json();
    expect(paid).toMatchObject({ status: 'PAID', payment_mode: 'card' });
    provider.check?.(booking.id, amount);
  });
}

/**
 * Culqi: its card widget (Culqi Checkout) runs only on Culqi's domains, so the browser test stops at
 * it: the page offers Culqi Checkout with the account's public key and the booking's amount. The
 * charge of the token it would give is tested against the stand-in in apps/server/test/api/culqi.test.ts.
 */
test("a rider choosing Culqi gets Culqi Checkout with the public key and the booking's amount (the test stops at Culqi's widget)", async ({ page, request }) => {
  await useCurrency(request, { code: 'PEN', symbol: 'S/' });
  const booking = await pendingCardTrip(request, 'rider1@rideway.demo');
  const amount = booking.customer_paid.toFixed(2);
  await signIn(page, 'rider1@rideway.demo');
  await page.goto('/bookings');
  const card = page.locator(`[data-booking="${booking.id}"]`);
  await card.getByRole('button', { name: 'Pay now' }).click();
  await page.getByRole('dialog', { name: 'Choose how to pay' }).getByRole('button', { name: 'Pay with Culqi' }).click();

  await page.waitForURL(`${origin}/api/payments/culqi/checkout`);
  const widget = page.locator('#payment-container[data-provider="culqi"]');
  const settings = JSON.parse((await widget.getAttribute('data-client-token')) ?? '{}') as { publicKey?: string; amount?: number; currency?: string };
  expect(settings).toMatchObject({ publicKey: culqi.publicKey, amount: Math.round(Number(amount) * 100), currency: 'PEN' });
  await expect(page.locator(`script[src="${culqi.url}/js/v4"]`)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Pay' })).toBeVisible();
  // The stand-in serves no Culqi Checkout script (window.Culqi is missing): the page says so rather than doing nothing.
  await expect(page.getByRole('alert')).toHaveText(SCRIPT_FAILED);
  await page.screenshot({ path: shot('culqi', 'widget'), animations: 'disabled' });
  // Nothing was charged: Culqi is asked only with the token its widget gives.
  expect(culqi.charges.size).toBe(0);
});

/**
 * SecurePay: its card component (securepay-ui.min.js) runs only on SecurePay's hosts, so the browser
 * test stops at it: the page offers the component with the client id, the merchant code and the
 * booking's amount in cents. The payment of the card token it would give is tested against the
 * stand-in in apps/server/test/api/securepay.test.ts.
 */
test("a rider choosing SecurePay gets SecurePay's card component with the client id and the booking's amount (the test stops at SecurePay's component)", async ({ page, request }) => {
  await useCurrency(request, { code: 'AUD', symbol: '$' });
  const booking = await pendingCardTrip(request, 'rider1@rideway.demo');
  const amount = booking.customer_paid.toFixed(2);
  await signIn(page, 'rider1@rideway.demo');
  await page.goto('/bookings');
  const card = page.locator(`[data-booking="${booking.id}"]`);
  await card.getByRole('button', { name: 'Pay now' }).click();
  await page.getByRole('dialog', { name: 'Choose how to pay' }).getByRole('button', { name: 'Pay with SecurePay' }).click();

  await page.waitForURL(`${origin}/api/payments/securepay/checkout`);
  const component = page.locator('#payment-container[data-provider="securepay"]');
  const settings = JSON.parse((await component.getAttribute('data-client-token')) ?? '{}') as { clientId?: string; merchantCode?: string; amount?: number; currency?: string };
  expect(settings).toEqual({ clientId: securepay.clientId, merchantCode: securepay.merchantCode, amount: Math.round(Number(amount) * 100), currency: 'AUD' });
  await expect(page.locator(`script[src="${securepay.url}/v3/ui/client/securepay-ui.min.js"]`)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Pay' })).toBeVisible();
  await page.screenshot({ path: shot('securepay', 'component'), animations: 'disabled' });
  // Nothing was paid: SecurePay is asked only with the token its component gives.
  expect(securepay.payments.size).toBe(0);
});

const SCRIPT_FAILED = 'The card form could not be loaded. Check your connection, then go back and try again, or choose another way to pay.';
const CARD_FAILED = 'Your card could not be used. Check its details and press Pay again, or try another card.';

/** Where the checkout page's screenshots go, at each width. */
const checkoutShot = (name: string, width: number) => `test-results/checkout-page/${name}-${String(width)}.png`;

/**
 * A stand-in for SecurePay's card component (its own script runs only on SecurePay's hosts): it
 * draws card fields in the container and, as the real one does with a card it cannot take,
 * answers `tokenise()` with `onTokeniseError`.
 */
const REFUSING_SECUREPAY_UI = `window.securePayUI = { init: function (options) {
  var box = document.getElementById(options.containerId);
  box.innerHTML = '<div style="display:grid;gap:8px;padding:12px;border:1px solid #c9d1cc;border-radius:8px;color:#4f5b55;font-size:15px">' +
    '<div style="padding:10px;border:1px solid #c9d1cc;border-radius:6px">4000 0000 0000 0002</div>' +
    '<div style="display:grid;grid-template-columns:1fr 1fr;gap:8px"><div style="padding:10px;border:1px solid #c9d1cc;border-radius:6px">12 / 30</div><div style="padding:10px;border:1px solid #c9d1cc;border-radius:6px">CVV •••</div></div></div>';
  this.tokenise = function () { setTimeout(function () { options.card.onTokeniseError({ errors: [{ code: 'card_declined' }] }); }, 200); };
} };`;

/** The rider opens SecurePay's checkout page for the booking from the bookings list. */
async function openSecurePayCheckout(page: Page, bookingId: string) {
  await page.goto('/bookings');
  await page.locator(`[data-booking="${bookingId}"]`).getByRole('button', { name: 'Pay now' }).click();
  await page.getByRole('dialog', { name: 'Choose how to pay' }).getByRole('button', { name: 'Pay with SecurePay' }).click();
  await page.waitForURL(`${origin}/api/payments/securepay/checkout`);
}

/** Both widths: nothing wider than the window, the Pay button the app's green, a screenshot of each. */
async function shootBothWidths(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${String(width)} px`).toBeLessThanOrEqual(width);
    await page.screenshot({ path: checkoutShot(name, width), animations: 'disabled', fullPage: true });
  }
}

test("SecurePay's checkout page: who charges, for which booking and how much, a failure the rider can act on, and the way back", async ({ page, request }) => {
  await useCurrency(request, { code: 'AUD', symbol: '$' });
  const booking = await pendingCardTrip(request, 'rider1@rideway.demo');
  const amount = `$${booking.customer_paid.toFixed(2)} AUD`;
  const rider = await apiSignIn(request, 'rider1@rideway.demo');
  const { booking_id: reference } = (await (await request.get(`/api/bookings/${booking.id}`, { headers: rider })).json()) as { booking_id: string };
  await signIn(page, 'rider1@rideway.demo');
  const script = `${securepay.url}/v3/ui/client/securepay-ui.min.js`;

  // The provider's script does not load: said at once, and Pay says it again rather than doing nothing.
  await page.route(script, (route) => route.abort('connectionrefused'));
  await openSecurePayCheckout(page, booking.id);
  await expect(page).toHaveTitle('Rideway: payment');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('header.brand')).toHaveText('Rideway');
  await expect(page.getByRole('heading', { name: 'Pay for your booking' })).toBeVisible();
  await expect(page.locator('.summary')).toContainText(`Booking${reference}`);
  await expect(page.locator('.summary .amount')).toHaveText(amount);
  const pay = page.getByRole('button', { name: `Pay ${amount}` });
  // Styled by the stylesheet from this origin: the app's green Pay button.
  await expect(pay).toHaveCSS('background-color', 'rgb(27, 94, 32)');
  await expect(page.getByRole('alert')).toHaveText(SCRIPT_FAILED);
  await pay.click();
  await expect(page.getByRole('alert')).toHaveText(SCRIPT_FAILED);
  await expect(pay).toBeEnabled();
  await shootBothWidths(page, 'securepay-script-missing');

  // The card component loads but cannot tokenise the card: the rider is told, and may press Pay again.
  await page.unroute(script);
  await page.route(script, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: REFUSING_SECUREPAY_UI }));
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSecurePayCheckout(page, booking.id);
  await expect(page.getByText('4000 0000 0000 0002')).toBeVisible();
  await shootBothWidths(page, 'securepay-ready');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await pay.click();
  await expect(page.getByRole('alert')).toHaveText(CARD_FAILED);
  await expect(pay).toBeEnabled();
  await shootBothWidths(page, 'securepay-card-refused');
  // Nothing was paid: SecurePay is asked only with a token.
  expect(securepay.payments.size).toBe(0);

  // "Cancel and go back": the booking's page in the web app.
  await page.getByRole('link', { name: 'Cancel and go back' }).click();
  await page.waitForURL(`${origin}/bookings/${booking.id}`);
});

test("the admins' payments page says which configured provider cannot take the settings currency", async ({ page, request }) => {
  // The demo's GBP: Flutterwave takes it, Paystack does not.
  await useCurrency(request, { code: 'GBP', symbol: '£' });
  const listed = await (await request.get('/get_providers')).json();
  expect(listed.map((provider: { name: string }) => provider.name)).toEqual(expect.arrayContaining(['test', 'flutterwave']));
  expect(listed.map((provider: { name: string }) => provider.name)).not.toContain('paystack');
  await signIn(page, 'admin@rideway.demo');
  await page.goto('/payments');
  await expect(page.getByTestId('provider-currency-paystack')).toContainText('Paystack does not take GBP');
  await expect(page.getByTestId('provider-currency-flutterwave')).toHaveCount(0);
  await expect(page.getByRole('grid').first()).toContainText('NGN, GHS, ZAR, KES, USD');
  await page.screenshot({ path: 'screenshots/hosted-admin-payments-1280.png', animations: 'disabled', fullPage: true });
});
