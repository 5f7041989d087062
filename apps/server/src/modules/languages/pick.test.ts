import { describe, expect, it } from 'vitest';
import { en } from './messages/en';
import { pickLanguage, type StoredLanguage } from './pick';

const files: Record<string, StoredLanguage> = {
  ar: { dir: 'rtl', default: true, messages: { welcome: 'أهلا' } },
  es: { dir: 'ltr', default: false, messages: { bookNow: 'Reservar' } },
};

describe('pickLanguage: one rule for the server\'s texts and its landing page', () => {
  it('takes the reader\'s choice where it exists, over the default and the shipped English', () => {
    const picked = pickLanguage(files, 'es');
    expect(picked).toMatchObject({ code: 'es', dir: 'ltr' });
    expect(picked.messages.bookNow).toBe('Reservar');
    // A key Spanish lacks comes from the admin's default language (as in the web app's i18next fallback).
    expect(picked.messages.welcome).toBe('أهلا');
    const shippedOnly = Object.keys(en).find((key) => !(key in files.ar!.messages) && !(key in files.es!.messages))!;
    expect(picked.messages[shippedOnly]).toBe(en[shippedOnly as keyof typeof en]);
  });

  it('falls back to the admin\'s default language for no choice, an unknown one and prototype names', () => {
    for (const wanted of [undefined, null, '', 'xx', '__proto__', 'constructor', 'toString']) {
      expect(pickLanguage(files, wanted)).toMatchObject({ code: 'ar', dir: 'rtl' });
    }
  });

  it('falls back to the shipped English when no file is marked default', () => {
    const picked = pickLanguage({ es: { ...files.es!, default: false } }, 'xx');
    expect(picked.code).toBe('en');
    expect(picked.messages).toEqual(en);
  });
});
