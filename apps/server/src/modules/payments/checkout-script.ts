/** The script every checkout page loads from this origin (the security policy allows no inline script). */
export const CHECKOUT_SCRIPT_PATH = '/api/payments/checkout.js';

/**
 * Posts a `form` checkout on; otherwise starts the provider's browser widget and posts the token it
 * gives to our `complete`. What fails is said in the page's `role="alert"` element, in the rider's
 * language (the texts are in its data attributes: this file is the same for every language), and
 * the Pay button is usable again:
 * - the provider's script did not load (its global is missing, or its widget would not start);
 * - Braintree's Drop-in: `dropin.create` and `requestPaymentMethod` answer an error as their
 *   callback's first argument (https://braintree.github.io/braintree-web-drop-in/docs/current/Dropin.html);
 * - Culqi Checkout calls the page's `culqi()` with `Culqi.token` on success, or with `Culqi.error`
 *   (its `user_message` is meant for the buyer) when the card is refused
 *   (https://docs.culqi.com/es/documentacion/checkout/v4/culqi-checkout/); Culqi's dialog is modal and
 *   reports no closing, so the Pay button is never held for it;
 * - SecurePay's card component (`securePayUI.init`, which finds its own script by `scriptId`) calls
 *   `onTokeniseSuccess` with the card token or `onTokeniseError` with its errors
 *   (https://auspost.com.au/payments/docs/securepay/?javascript).
 * Culqi Checkout is handed its settings (public key, amount in céntimos, currency) from the page.
 */
export const CHECKOUT_SCRIPT = `(function () {
  var form = document.getElementById('checkout');
  if (!form) return;
  if (form.dataset.autopost) { form.submit(); return; }
  var box = document.getElementById('payment-container');
  var alertBox = document.getElementById('checkout-error');
  var button = form.querySelector('button[type="submit"]');
  var nonce = form.elements.payment_method_nonce;
  var pay = null;
  function busy(on) {
    if (!button) return;
    button.disabled = on;
    if (on) button.setAttribute('aria-busy', 'true'); else button.removeAttribute('aria-busy');
  }
  function fail(kind) {
    if (alertBox) alertBox.textContent = alertBox.dataset[kind] || '';
    busy(false);
  }
  function send(value) { nonce.value = value; form.submit(); }
  form.addEventListener('submit', function (event) {
    if (nonce && nonce.value) return;
    event.preventDefault();
    if (alertBox) alertBox.textContent = '';
    if (!pay) { fail('scriptFailed'); return; }
    pay();
  });
  var provider = box ? box.dataset.provider : '';
  try {
    if (provider === 'culqi') {
      var C = window.Culqi;
      if (!C) { fail('scriptFailed'); return; }
      var s = JSON.parse(box.dataset.clientToken);
      C.publicKey = s.publicKey;
      C.settings({ title: s.title, currency: s.currency, description: s.description, amount: s.amount });
      if (C.options) C.options({ lang: 'auto', installments: false, paymentMethods: { tarjeta: true, yape: false, bancaMovil: false, agente: false, billetera: false, cuotealo: false } });
      window.culqi = function () {
        if (C.token && C.token.id) { if (C.close) C.close(); send(C.token.id); return; }
        if (C.close) C.close();
        fail('cardFailed');
      };
      pay = function () { try { C.open(); } catch (error) { fail('scriptFailed'); } };
      return;
    }
    if (provider === 'securepay') {
      var U = window.securePayUI;
      if (!U) { fail('scriptFailed'); return; }
      var p = JSON.parse(box.dataset.clientToken);
      var tag = document.querySelector('script[src*="/securepay-ui"]');
      if (tag && !tag.id) tag.id = 'securepay-ui-js';
      var ui = new U.init({
        containerId: 'payment-container',
        scriptId: 'securepay-ui-js',
        clientId: p.clientId,
        merchantCode: p.merchantCode,
        card: {
          onTokeniseSuccess: function (card) { if (card && card.token) send(card.token); else fail('cardFailed'); },
          onTokeniseError: function () { fail('cardFailed'); }
        }
      });
      pay = function () { busy(true); try { ui.tokenise(); } catch (error) { fail('cardFailed'); } };
      return;
    }
    var B = window.braintree;
    if (!box || !B || !B.dropin) { fail('scriptFailed'); return; }
    busy(true);
    B.dropin.create({ authorization: box.dataset.clientToken, container: box }, function (error, instance) {
      if (error || !instance) { fail('scriptFailed'); return; }
      busy(false);
      pay = function () {
        busy(true);
        instance.requestPaymentMethod(function (failed, payload) {
          if (failed || !payload || !payload.nonce) { fail('cardFailed'); return; }
          send(payload.nonce);
        });
      };
    });
  } catch (error) {
    fail('scriptFailed');
  }
})();
`;
