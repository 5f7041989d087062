import { isDeepStrictEqual } from 'node:util';
import type { LanguageFile } from '@rideway/contract';
import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { languages } from '../../db/schema';
import { dataChanged, readThrough } from '../../db/read-cache';
import { ar } from './messages/ar';
import { en } from './messages/en';
import { es } from './messages/es';
import { pickLanguage, type PickedLanguage } from './pick';

/** The shipped languages: English first (the default), Arabic (right to left), Spanish. */
const BUILT_IN_LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr', messages: en },
  { code: 'ar', name: 'العربية', dir: 'rtl', messages: ar },
  { code: 'es', name: 'Español', dir: 'ltr', messages: es },
] as const;

/**
 * Brings the stored language files up to the shipped ones (new keys arrive with upgrades). Only a
 * file that differs is written, and the change announced: on a restart with nothing new this is
 * one read instead of three writes of about 100 KB each (issue 21 point 3, a restart's time).
 */
export async function installLanguages(db: Db): Promise<void> {
  const stored = await db.select().from(languages);
  let changed = false;
  for (const [position, language] of BUILT_IN_LANGUAGES.entries()) {
    const row = { ...language, messages: { ...language.messages }, position, isDefault: position === 0 };
    const current = stored.find((candidate) => candidate.code === row.code);
    if (current && isDeepStrictEqual(current, { ...current, ...row })) continue;
    await db.insert(languages).values(row).onConflictDoUpdate({ target: languages.code, set: row });
    changed = true;
  }
  if (changed) await dataChanged('languages');
}

/**
 * Section 7 GET /get_languages: a map of languages, the default first. With `withMessages`, only
 * those languages and the default carry their messages (the others an empty set).
 */
export async function languageMap(db: Db, withMessages?: readonly string[]): Promise<Record<string, LanguageFile>> {
  // Held in the process until the languages change (db/read-cache.ts); a copy of the map to each caller.
  const rows = await readThrough(db, 'languages', () => db.select().from(languages).orderBy(asc(languages.position)));
  // dir is stored from BUILT_IN_LANGUAGES, whose directions are 'ltr' or 'rtl'.
  const carries = (row: { code: string; isDefault: boolean }) => withMessages === undefined || row.isDefault || withMessages.includes(row.code);
  return Object.fromEntries(rows.map((row) => [row.code, { name: row.name, dir: row.dir as LanguageFile['dir'], default: row.isDefault, messages: carries(row) ? row.messages : {} }]));
}

/** The language a page is written in for a visitor who chose `wanted` (the app's language cookie), by the rule of pick.ts. */
export async function pageLanguage(db: Db, wanted: string | undefined): Promise<PickedLanguage> {
  return pickLanguage(await languageMap(db, wanted ? [wanted] : []), wanted);
}
