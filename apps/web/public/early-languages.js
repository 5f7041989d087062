// Issue 21 point 5: the language files are asked for while the app's script downloads instead of
// after it has run, which took a round trip and their download off a phone's first paint.
// src/i18n/languages.ts takes this answer when it asks for the same languages.
(function () {
  var stored = null;
  try {
    stored = localStorage.getItem('rideway.language');
  } catch {
    // Storage refused (a privacy mode): the app asks for the default language itself.
  }
  var url = '/get_languages?messages=' + encodeURIComponent(stored || '');
  window.ridewayEarlyLanguages = { url: url, response: fetch(url) };
})();
