import type { MessageKey } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import { createInstance, type TFunction } from 'i18next';
import type { Db, Tx } from '../../db/client';
import { languages, users } from '../../db/schema';
import { pickLanguage, type StoredLanguage } from '../languages/pick';
import { languageMap } from '../languages/service';

/**
 * Issue 19: push, SMS and mail texts are written in the recipient's language, from the same
 * language files the app loads from GET /get_languages (the `languages` table, which admins may
 * edit), through i18next as the app does. A key missing in the recipient's language falls back to
 * English; the shipped English file is the last resort, so a text is never a bare key.
 */

/** The values a text's {{placeholders}} take. */
export type TextValues = Record<string, string | number>;

/** Renders message keys in one language; says which language that is and its writing direction (for HTML mail). */
export type Render = ((key: MessageKey, values?: TextValues) => string) & { language: string; dir: 'ltr' | 'rtl' };

/** The stored language files, by code, as a renderer reads them. */
export type LanguageFiles = Readonly<Record<string, StoredLanguage>>;

/**
 * The renderer for a language from the stored files (that language's and the default's), by
 * pickLanguage's rule. Read through the process's cache (languageMap); inside a transaction the
 * cache is not used, so a trip step reads the files before its transaction opens (renderFrom).
 */
export async function renderIn(db: Db | Tx, language: string | null | undefined): Promise<Render> {
  return renderFrom(await languageMap(db, language ? [language] : []), language);
}

/** The renderer for a language from files already read. */
export function renderFrom(files: LanguageFiles, language: string | null | undefined): Render {
  const { code: chosen, dir, messages } = pickLanguage(files, language);
  const i18n = createInstance();
  // Synchronous: the resources are in memory, so init finishes before it returns.
  void i18n.init({
    // pickLanguage has laid the fallbacks under the chosen language's messages already.
    resources: { [chosen]: { translation: messages } },
    lng: chosen,
    initAsync: false,
    // Texts go to SMS, push and plain-text mail; the HTML receipt escapes what it puts in.
    interpolation: { escapeValue: false },
    returnNull: false,
    returnEmptyString: false,
  });
  const t: TFunction = i18n.t;
  return Object.assign((key: MessageKey, values?: TextValues) => t(key, values ?? {}), { language: chosen, dir });
}

/** Whether a language file with this code exists (a user's language is one of them). */
export async function isLanguage(db: Db | Tx, code: string): Promise<boolean> {
  return (await db.select({ code: languages.code }).from(languages).where(eq(languages.code, code)).limit(1)).length > 0;
}

/** The language a user chose in the app; null when none was (they read the default). */
export async function languageOf(db: Db | Tx, uid: string): Promise<string | null> {
  const row = (await db.select({ language: users.language }).from(users).where(eq(users.id, uid)).limit(1))[0];
  return row?.language ?? null;
}

/** The renderer for a user's language. */
export async function renderFor(db: Db | Tx, uid: string): Promise<Render> {
  return renderIn(db, await languageOf(db, uid));
}
