import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE } from '@rideway/domain';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { takeEarly } from '../api/early';

/** A language as GET /get_languages serves it. */
export type Language = { code: string; name: string; dir: 'ltr' | 'rtl'; default: boolean };
type LanguageFile = Omit<Language, 'code'> & { messages: Record<string, string> };

// public/early-requests.js reads the same key before the app loads: change both together.
const STORED = 'rideway.language';
const YEAR_S = 365 * 24 * 60 * 60;

/** The choice, also as a cookie: the server writes the landing page in it before the app has loaded (issue 21 point 5). */
function rememberChoice(code: string): void {
  localStorage.setItem(STORED, code);
  document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(code)}; path=/; max-age=${String(YEAR_S)}; samesite=lax`;
}

/** The language files, with the messages of `codes` and of the default only (the server's ?messages=). */
async function languageFiles(codes: readonly string[]): Promise<Record<string, LanguageFile>> {
  const url = `/get_languages?messages=${encodeURIComponent(codes.join(','))}`;
  const response = await takeEarly(url) ?? await fetch(url);
  return (await response.json()) as Record<string, LanguageFile>;
}

/**
 * Loads the language list and the messages of the visitor's last choice (admins may edit them on
 * the server), and starts i18next in that choice, else the default. Only the language shown and
 * the default (where missing keys fall back) are loaded: every other one comes when chosen.
 */
export async function startI18n(): Promise<Language[]> {
  const stored = localStorage.getItem(STORED);
  // A choice made before the cookie existed reaches the server from the next page on.
  if (stored) rememberChoice(stored);
  const files = await languageFiles(stored ? [stored] : []);
  const languages = Object.entries(files).map(([code, file]) => ({ code, name: file.name, dir: file.dir, default: file.default }));
  const fallback = languages.find((language) => language.default)?.code ?? DEFAULT_LANGUAGE;
  const loaded = Object.entries(files).filter(([code, file]) => code === fallback || Object.keys(file.messages).length > 0);
  await i18next.use(initReactI18next).init({
    resources: Object.fromEntries(loaded.map(([code, file]) => [code, { translation: file.messages }])),
    lng: stored && loaded.some(([code]) => code === stored) ? stored : fallback,
    fallbackLng: fallback,
    interpolation: { escapeValue: false },
  });
  return languages;
}

export async function chooseLanguage(code: string): Promise<void> {
  if (!i18next.hasResourceBundle(code, 'translation')) {
    const messages = (await languageFiles([code]))[code]?.messages;
    if (messages) i18next.addResourceBundle(code, 'translation', messages);
  }
  rememberChoice(code);
  await i18next.changeLanguage(code);
}
