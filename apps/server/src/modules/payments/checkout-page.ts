import type { Checkout } from '../../providers/payments/port';

/** The small pages of a provider's checkout that is not a plain redirect: a form posted on, or a provider's browser script. */

const escape = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The script every such page loads from this origin (the security policy allows no inline script). */
export const CHECKOUT_SCRIPT_PATH = '/api/payments/checkout.js';

/**
 * Braintree's Drop-in comes from Braintree's own domain (its browser script accepts only
 * Braintree's domains; the security policy allows its hosts when Braintree is configured).
 */
const CLIENT_SCRIPTS: Record<string, string> = { braintree: 'https://js.braintreegateway.com/web/dropin/1.43.0/js/dropin.min.js' };

const layout = (title: string, body: string, scripts: string[]): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>${scripts.map((src) => `<script src="${escape(src)}" defer></script>`).join('')}</head><body><main>${body}</main></body></html>`;

/** A `form` checkout: posted on to the provider at once by the script, or by the button without it. */
export function autoPostPage(checkout: Extract<Checkout, { kind: 'form' }>): string {
  const inputs = Object.entries(checkout.fields).map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('');
  return layout('Payment', `<form id="checkout" data-autopost="1" method="post" action="${escape(checkout.action)}">${inputs}<button type="submit">Continue to payment</button></form>`, [CHECKOUT_SCRIPT_PATH]);
}

/** A `client` checkout: the provider's browser script takes the card with the client token and gives a nonce, posted to our `complete`. */
export function clientPage(provider: string, checkout: Extract<Checkout, { kind: 'client' }>, attemptId: string): string {
  const script = checkout.script ?? CLIENT_SCRIPTS[provider];
  return layout(
    'Payment',
    `<div id="payment-container" data-provider="${escape(provider)}" data-client-token="${escape(checkout.clientToken)}"></div><form id="checkout" method="post" action="/api/payments/${escape(provider)}/complete"><input type="hidden" name="attempt" value="${escape(attemptId)}"><input type="hidden" name="payment_method_nonce" value=""><button type="submit">Pay</button></form>`,
    [...(script ? [script] : []), CHECKOUT_SCRIPT_PATH],
  );
}

/**
 * Posts a `form` checkout on; hands a client token to Braintree's Drop-in and posts its nonce; hands
 * Culqi Checkout its settings (public key, amount in céntimos, currency) and posts the token its
 * `culqi()` callback gives (https://docs.culqi.com/es/documentacion/checkout/v4/culqi-checkout/);
 * starts SecurePay's card component (`securePayUI.init`, which finds its own script by `scriptId`)
 * and posts the card token its `onTokeniseSuccess` gives (https://auspost.com.au/payments/docs/securepay/?javascript).
 */
export const CHECKOUT_SCRIPT = `(function(){var form=document.getElementById('checkout');if(!form)return;if(form.dataset.autopost){form.submit();return;}var box=document.getElementById('payment-container');if(box&&box.dataset.provider==='culqi'){var C=window.Culqi;if(!C)return;var s=JSON.parse(box.dataset.clientToken);C.publicKey=s.publicKey;C.settings({title:s.title,currency:s.currency,description:s.description,amount:s.amount});if(C.options)C.options({lang:'auto',installments:false,paymentMethods:{tarjeta:true,yape:false,bancaMovil:false,agente:false,billetera:false,cuotealo:false}});window.culqi=function(){if(C.token&&C.token.id){form.elements.payment_method_nonce.value=C.token.id;if(C.close)C.close();form.submit();}};form.addEventListener('submit',function(event){if(form.elements.payment_method_nonce.value)return;event.preventDefault();C.open();});return;}if(box&&box.dataset.provider==='securepay'){var U=window.securePayUI;if(!U)return;var p=JSON.parse(box.dataset.clientToken);var tag=document.querySelector('script[src*="/securepay-ui"]');if(tag&&!tag.id)tag.id='securepay-ui-js';var ui=new U.init({containerId:'payment-container',scriptId:'securepay-ui-js',clientId:p.clientId,merchantCode:p.merchantCode,card:{onTokeniseSuccess:function(card){if(card&&card.token){form.elements.payment_method_nonce.value=card.token;form.submit();}},onTokeniseError:function(){}}});form.addEventListener('submit',function(event){if(form.elements.payment_method_nonce.value)return;event.preventDefault();ui.tokenise();});return;}if(!box||!window.braintree||!window.braintree.dropin)return;window.braintree.dropin.create({authorization:box.dataset.clientToken,container:box},function(error,instance){if(error)return;form.addEventListener('submit',function(event){if(form.elements.payment_method_nonce.value)return;event.preventDefault();instance.requestPaymentMethod(function(failed,payload){if(failed)return;form.elements.payment_method_nonce.value=payload.nonce;form.submit();});});});})();`;
