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
  window.ridewayEarlyLanguages = undefined;
  localStorage.clear();
});

// Issue 21 point 5: public/early-languages.js asks for the language files before the app's script
// has loaded; the app takes that answer instead of asking again.
describe('the language files asked for early', () => {
  it('are taken when the early request asked for the same languages, without a second request', async () => {
    const fetchSpy = vi.fn(() => Promise.resolve(answer(FILES)));
    vi.stubGlobal('fetch', fetchSpy);
    window.ridewayEarlyLanguages = { url: '/get_languages?messages=', response: Promise.resolve(answer(FILES)) };
    const languages = await startI18n();
    expect(languages.map((language) => language.code)).toEqual(['en', 'ar']);
    expect(i18next.t('hero_slogan')).toBe('Your ride');
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(window.ridewayEarlyLanguages).toBeUndefined();
  });

  it('are asked for again when the early request asked for other languages, failed or was refused', async () => {
    localStorage.setItem('rideway.language', 'ar');
    for (const early of [
      { url: '/get_languages?messages=', response: Promise.resolve(answer(FILES)) },
      { url: '/get_languages?messages=ar', response: Promise.reject(new TypeError('network')) },
      { url: '/get_languages?messages=ar', response: Promise.resolve(answer({ message: 'busy' }, 503)) },
    ]) {
      const fetchSpy = vi.fn(() => Promise.resolve(answer(FILES)));
      vi.stubGlobal('fetch', fetchSpy);
      window.ridewayEarlyLanguages = early;
      await startI18n();
      expect(fetchSpy).toHaveBeenCalledExactlyOnceWith('/get_languages?messages=ar');
    }
  });
});
