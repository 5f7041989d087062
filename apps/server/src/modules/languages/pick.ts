import { DEFAULT_LANGUAGE } from '@rideway/domain';
import { en } from './messages/en';

/** A stored language file, as much of it as choosing one needs. */
export type StoredLanguage = { dir: string; default: boolean; messages: Record<string, string> };

/** The language chosen for a reader: its code, writing direction and every message. */
export type PickedLanguage = { code: string; dir: 'ltr' | 'rtl'; messages: Record<string, string> };

/**
 * The one rule for the language a text or page is written in (issue 19's messages, issue 21's
 * landing page): the reader's choice where that file exists here, else the admin's default
 * language, else the shipped English. Its messages come over the default's and the shipped
 * English, so a text is never a bare key.
 */
export function pickLanguage(files: Readonly<Record<string, StoredLanguage>>, wanted: string | null | undefined): PickedLanguage {
  const fallback = Object.entries(files).find(([, file]) => file.default)?.[0] ?? DEFAULT_LANGUAGE;
  // Own keys only: a cookie or a stored choice saying "__proto__" or "constructor" is not a language.
  const own = (key: string): StoredLanguage | undefined => (Object.hasOwn(files, key) ? files[key] : undefined);
  const code = typeof wanted === 'string' && own(wanted) ? wanted : fallback;
  return { code, dir: own(code)?.dir === 'rtl' ? 'rtl' : 'ltr', messages: { ...en, ...own(fallback)?.messages, ...own(code)?.messages } };
}
