// Issue 21 point 5: the app's first requests, the language files, the session and the settings, are
// made while the app's script downloads instead of after it has run: a round trip and a download
// taken off a phone's first view. src/api/early.ts hands each answer to the app, once.
(function () {
  var stored = null;
  try {
    // The key src/i18n/languages.ts keeps the chosen language under (STORED); this plain script cannot import it.
    stored = localStorage.getItem('rideway.language');
  } catch {
    // Storage refused (a privacy mode): the app asks for the default language itself.
  }
  var requests = new Map();
  [
    '/get_languages?messages=' + encodeURIComponent(stored || ''),
    '/api/session',
    '/api/settings',
  ].forEach(function (url) {
    requests.set(url, fetch(url, { credentials: 'same-origin' }));
  });
  window.ridewayEarly = requests;
})();
