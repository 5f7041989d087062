import type { MessageKey } from '@rideway/contract';
import { eq, inArray } from 'drizzle-orm';
import { createInstance, type TFunction } from 'i18next';
import type { Db, Tx } from '../../db/client';
import { languages, users } from '../../db/schema';
import { pickFiles, pickLanguage, type StoredLanguage } from '../languages/pick';
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

/** The renderers made, by the messages of the chosen file and of the default's (WeakMaps: files no longer read are let go). */
const renderers = new WeakMap<object, WeakMap<object, Render>>();
const NO_FILE = {};

/**
 * The renderer for a language from files already read. Kept while those files are the read
 * cache's (the same objects from one read to the next): laying about a thousand messages together
 * and starting i18next cost more than the notice it writes (issue 21, the city's profile).
 */
export function renderFrom(files: LanguageFiles, language: string | null | undefined): Render {
  const { chosen, fallback, code, dir } = pickFiles(files, language);
  const chosenKey = chosen?.messages ?? NO_FILE;
  let byChosen = renderers.get(chosenKey);
  if (!byChosen) {
    byChosen = new WeakMap<object, Render>();
    renderers.set(chosenKey, byChosen);
  }
  const kept = byChosen.get(fallback?.messages ?? NO_FILE);
  // The same messages under another code or direction (an admin copied a file) make another renderer.
  if (kept && kept.language === code && kept.dir === dir) return kept;
  const made = newRender(files, language);
  byChosen.set(fallback?.messages ?? NO_FILE, made);
  return made;
}

function newRender(files: LanguageFiles, language: string | null | undefined): Render {
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

/** The languages some users chose (null: none, they read the default), in one query. */
export async function languagesOf(db: Db | Tx, uids: readonly string[]): Promise<Map<string, string | null>> {
  if (uids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, language: users.language }).from(users).where(inArray(users.id, [...uids]));
  return new Map(rows.map((row) => [row.id, row.language]));
}

/** The renderer for a user's language. */
export async function renderFor(db: Db | Tx, uid: string): Promise<Render> {
  return renderIn(db, await languageOf(db, uid));
}
