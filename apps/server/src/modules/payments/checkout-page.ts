import { providerLabel } from '@rideway/contract';
import type { Checkout } from '../../providers/payments/port';
import type { Render } from '../messages/render';
import { CHECKOUT_SCRIPT_PATH } from './checkout-script';
import { CHECKOUT_STYLE_PATH } from './checkout-style';

/**
 * The small pages of a provider's checkout that is not a plain redirect: a form posted on, or a
 * provider's browser script. Each says who is charging (the app's name), for what and how much, in
 * the rider's language, with a way back to the booking or the wallet. Everything from the
 * database or the provider is escaped: a booking's reference or a provider's field is never markup.
 */

const escape = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What the page tells the rider about the payment (checkout-summary.ts builds it from the attempt). */
export type CheckoutSummary = {
  /** The rider's language, and its writing direction for `<html dir>`. */
  render: Render;
  appName: string;
  /** The booking's reference as the rider knows it, or a wallet top-up. */
  paying: { kind: 'booking'; reference: string } | { kind: 'topup' };
  /** The amount with its currency, formatted for the rider's language. */
  amount: string;
  /** The web app's page "Cancel and go back" leads to: the booking, or the wallet. */
  backPath: string;
};

/**
 * Braintree's Drop-in comes from Braintree's own domain (its browser script accepts only
 * Braintree's domains; the security policy allows its hosts when Braintree is configured).
 */
const CLIENT_SCRIPTS: Record<string, string> = { braintree: 'https://js.braintreegateway.com/web/dropin/1.43.0/js/dropin.min.js' };


/**
 * An amount kept left to right inside any text: in an Arabic sentence "$14.19 AUD" would otherwise
 * be laid out as "AUD 14.19$".
 */
const amountHtml = (amount: string): string => `<bdi dir="ltr">${escape(amount)}</bdi>`;

/** A text with the amount in it, escaped, the amount isolated (the placeholder cannot be in a translation). */
const textWithAmount = (text: (amount: string) => string, amount: string): string => escape(text('\u0000')).replace('\u0000', amountHtml(amount));

/** The page around `body`: the app's name, what is paid and how much, then `body`, the way back and a `note` under it. */
function layout(summary: CheckoutSummary, body: string, scripts: string[], note = ''): string {
  const { render, appName, paying, amount } = summary;
  const heading = render(paying.kind === 'booking' ? 'checkout_heading_booking' : 'checkout_heading_topup');
  const amountRow = `<div><dt>${escape(render(paying.kind === 'booking' ? 'checkout_amount' : 'checkout_topup'))}</dt><dd class="amount">${amountHtml(amount)}</dd></div>`;
  const summaryList = `${paying.kind === 'booking' ? `<div><dt>${escape(render('checkout_booking'))}</dt><dd>${escape(paying.reference)}</dd></div>` : ''}${amountRow}`;
  return (
    `<!doctype html><html lang="${escape(render.language)}" dir="${render.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escape(render('checkout_title', { app: appName }))}</title><link rel="stylesheet" href="${CHECKOUT_STYLE_PATH}">` +
    `${scripts.map((src) => `<script src="${escape(src)}" defer></script>`).join('')}</head>` +
    `<body><header class="brand"><span>${escape(appName)}</span></header><main class="checkout"><h1>${escape(heading)}</h1><dl class="summary">${summaryList}</dl>${body}` +
    `<a class="back" href="${escape(summary.backPath)}">${escape(render('checkout_cancel'))}</a>${note ? `<p class="note">${escape(note)}</p>` : ''}</main></body></html>`
  );
}

/** A `form` checkout: posted on to the provider at once by the script, or by the button without it. */
export function autoPostPage(provider: string, checkout: Extract<Checkout, { kind: 'form' }>, summary: CheckoutSummary): string {
  const { render } = summary;
  const inputs = Object.entries(checkout.fields).map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('');
  const label = providerLabel(provider);
  return layout(
    summary,
    `<p class="lead">${escape(render('checkout_redirecting', { provider: label }))}</p><form id="checkout" data-autopost="1" method="post" action="${escape(checkout.action)}">${inputs}<button type="submit" class="pay">${escape(render('checkout_continue', { provider: label }))}</button></form>`,
    [CHECKOUT_SCRIPT_PATH],
  );
}

/**
 * A `client` checkout: the provider's browser script takes the card with the client token and gives
 * a nonce, posted to our `complete`. The alert carries the failure texts in the rider's language for
 * the script (which is the same file for every language) to show.
 */
export function clientPage(provider: string, checkout: Extract<Checkout, { kind: 'client' }>, attemptId: string, summary: CheckoutSummary): string {
  const { render, appName } = summary;
  const script = checkout.script ?? CLIENT_SCRIPTS[provider];
  const alert = `<p id="checkout-error" class="error" role="alert" data-script-failed="${escape(render('checkout_script_failed'))}" data-card-failed="${escape(render('checkout_card_failed'))}"></p>`;
  return layout(
    summary,
    `<div id="payment-container" data-provider="${escape(provider)}" data-client-token="${escape(checkout.clientToken)}"></div>${alert}` +
      `<form id="checkout" method="post" action="/api/payments/${escape(provider)}/complete"><input type="hidden" name="attempt" value="${escape(attemptId)}"><input type="hidden" name="payment_method_nonce" value=""><button type="submit" class="pay">${textWithAmount((amount) => render('checkout_pay', { amount }), summary.amount)}</button></form>`,
    [...(script ? [script] : []), CHECKOUT_SCRIPT_PATH],
    render('checkout_card_safe', { provider: providerLabel(provider), app: appName }),
  );
}
