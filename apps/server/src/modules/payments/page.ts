import { TEST_COMPLETE_PATH } from '../../providers/payments/test-provider';
import type { CheckoutPage } from './service';

const escape = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

const form = (fields: Record<string, string>, label: string, primary: boolean): string =>
  `<form method="post" action="${TEST_COMPLETE_PATH}">${Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('')}<button type="submit" class="${primary ? 'primary' : ''}">${label}</button></form>`;

const layout = (title: string, body: string): string => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;min-height:100vh;display:grid;place-items:center;color:#1c2733}main{background:#fff;border-radius:12px;padding:2rem;margin:1rem;max-width:26rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}h1{font-size:1.3rem;margin:0 0 1rem}.amount{font-size:2rem;font-weight:700;margin:.5rem 0 1.5rem}form{display:inline}button{font-size:1rem;padding:.7rem 1.4rem;border-radius:8px;border:1px solid #c5ccd3;background:#fff;margin-right:.5rem;cursor:pointer}button.primary{background:#1f6feb;color:#fff;border-color:#1f6feb}.note{color:#5b6670;font-size:.85rem;margin-top:1.5rem}</style></head><body><main>${body}</main></body></html>`;

/** The embedded test provider's checkout page: nothing is charged; it confirms or declines. */
export function checkoutPage(page: CheckoutPage): string {
  const [pay, decline] = page.confirmations;
  return layout(
    'Test checkout',
    `<h1>Test checkout</h1><div>${escape(page.product)}</div><div class="amount">${escape(page.amount)} ${escape(page.currency)}</div>${pay ? form(pay.fields, 'Pay', true) : ''}${decline ? form(decline.fields, 'Decline', false) : ''}<p class="note">The embedded test provider: no card is charged. Configure a real provider to take payments.</p>`,
  );
}

export function resultPage(outcome: 'succeeded' | 'declined'): string {
  return layout(
    outcome === 'succeeded' ? 'Payment received' : 'Payment declined',
    `<h1 id="payment-result">${outcome === 'succeeded' ? 'Payment received' : 'Payment declined'}</h1><p>${outcome === 'succeeded' ? 'Thank you. Your booking is paid.' : 'Nothing was charged. Your booking is still waiting for payment.'}</p><p><a href="/bookings">Back to your bookings</a></p>`,
  );
}
