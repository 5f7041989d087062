import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startI18n } from './languages';

const FILES = {
  en: { name: 'English', dir: 'ltr', default: true, messages: { hero_slogan: 'Your ride' } },
  ar: { name: 'العربية', dir: 'rtl', default: false, messages: {} },
};
const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  window.ridewayEarly = undefined;
  localStorage.clear();
});

// Issue 21 point 5: public/early-requests.js asks for the language files before the app's script
// has loaded; the app takes that answer instead of asking again.
describe('the language files asked for early', () => {
  it('are taken when the early request asked for the same languages, without a second request', async () => {
    const fetchSpy = vi.fn(() => Promise.resolve(answer(FILES)));
    vi.stubGlobal('fetch', fetchSpy);
    window.ridewayEarly = new Map([['/get_languages?messages=', Promise.resolve(answer(FILES))]]);
    const languages = await startI18n();
    expect(languages.map((language) => language.code)).toEqual(['en', 'ar']);
    expect(i18next.t('hero_slogan')).toBe('Your ride');
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(window.ridewayEarly.size).toBe(0);
  });

  it('are asked for again when the early request asked for other languages, failed or was refused', async () => {
    localStorage.setItem('rideway.language', 'ar');
    for (const [url, response] of [
      ['/get_languages?messages=', Promise.resolve(answer(FILES))],
      ['/get_languages?messages=ar', Promise.reject(new TypeError('network'))],
      ['/get_languages?messages=ar', Promise.resolve(answer({ message: 'busy' }, 503))],
    ] as const) {
      const fetchSpy = vi.fn(() => Promise.resolve(answer(FILES)));
      vi.stubGlobal('fetch', fetchSpy);
      window.ridewayEarly = new Map([[url, response]]);
      await startI18n();
      expect(fetchSpy).toHaveBeenCalledExactlyOnceWith('/get_languages?messages=ar');
    }
  });
});
