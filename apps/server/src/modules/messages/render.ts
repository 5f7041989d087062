import type { MessageKey } from '@rideway/contract';
import { DEFAULT_LANGUAGE } from '@rideway/domain';
import { eq, inArray, or } from 'drizzle-orm';
import { createInstance, type TFunction } from 'i18next';
import type { Db, Tx } from '../../db/client';
import { languages, users } from '../../db/schema';
import { en } from '../languages/messages/en';

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

/** Builds the renderer for a language from the stored files (that language's and English). */
export async function renderIn(db: Db | Tx, language: string | null | undefined): Promise<Render> {
  const wanted = language ?? DEFAULT_LANGUAGE;
  const rows = await db
    .select({ code: languages.code, dir: languages.dir, messages: languages.messages })
    .from(languages)
    .where(or(inArray(languages.code, [wanted, DEFAULT_LANGUAGE]), eq(languages.isDefault, true)));
  const resources: Record<string, { translation: Record<string, string> }> = { [DEFAULT_LANGUAGE]: { translation: { ...en } } };
  for (const row of rows) {
    resources[row.code] = { translation: row.code === DEFAULT_LANGUAGE ? { ...en, ...row.messages } : row.messages };
  }
  const chosen = wanted in resources ? wanted : DEFAULT_LANGUAGE;
  const dir: Render['dir'] = rows.find((row) => row.code === chosen)?.dir === 'rtl' ? 'rtl' : 'ltr';
  const i18n = createInstance();
  // Synchronous: the resources are in memory, so init finishes before it returns.
  void i18n.init({
    resources,
    lng: chosen,
    fallbackLng: DEFAULT_LANGUAGE,
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

/** The language a user reads messages in: the one chosen in the app, else the default. */
export async function languageOf(db: Db | Tx, uid: string): Promise<string> {
  const row = (await db.select({ language: users.language }).from(users).where(eq(users.id, uid)).limit(1))[0];
  return row?.language ?? DEFAULT_LANGUAGE;
}

/** The renderer for a user's language. */
export async function renderFor(db: Db | Tx, uid: string): Promise<Render> {
  return renderIn(db, await languageOf(db, uid));
}
