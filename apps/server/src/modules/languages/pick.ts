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
  const { code, dir, chosen, fallback } = pickFiles(files, wanted);
  return { code, dir, messages: { ...en, ...fallback?.messages, ...chosen?.messages } };
}

/**
 * pickLanguage's choice without laying the messages together: the chosen code and direction, and
 * the two files whose messages make it up (a renderer kept per pair of files need not merge them).
 */
export function pickFiles(files: Readonly<Record<string, StoredLanguage>>, wanted: string | null | undefined): { code: string; dir: 'ltr' | 'rtl'; chosen: StoredLanguage | undefined; fallback: StoredLanguage | undefined } {
  const fallbackCode = Object.entries(files).find(([, file]) => file.default)?.[0] ?? DEFAULT_LANGUAGE;
  // Own keys only: a cookie or a stored choice saying "__proto__" or "constructor" is not a language.
  const own = (key: string): StoredLanguage | undefined => (Object.hasOwn(files, key) ? files[key] : undefined);
  const code = typeof wanted === 'string' && own(wanted) ? wanted : fallbackCode;
  const chosen = own(code);
  return { code, dir: chosen?.dir === 'rtl' ? 'rtl' : 'ltr', chosen, fallback: own(fallbackCode) };
}
