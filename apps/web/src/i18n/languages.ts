import { DEFAULT_LANGUAGE } from '@rideway/domain';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/** A language as GET /get_languages serves it. */
export type Language = { code: string; name: string; dir: 'ltr' | 'rtl'; default: boolean };
type LanguageFile = Omit<Language, 'code'> & { messages: Record<string, string> };

const STORED = 'rideway.language';

/**
 * Loads every language file from the server (admins may edit them) and starts i18next in the
 * visitor's last choice, else the default. Missing keys fall back to the default language.
 */
export async function startI18n(): Promise<Language[]> {
  const response = await fetch('/get_languages');
  const files = (await response.json()) as Record<string, LanguageFile>;
  const languages = Object.entries(files).map(([code, file]) => ({ code, name: file.name, dir: file.dir, default: file.default }));
  const fallback = languages.find((language) => language.default)?.code ?? DEFAULT_LANGUAGE;
  const stored = localStorage.getItem(STORED);
  await i18next.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries(files).map(([code, file]) => [code, { translation: file.messages }])),
    lng: stored && stored in files ? stored : fallback,
    fallbackLng: fallback,
    interpolation: { escapeValue: false },
  });
  return languages;
}

export async function chooseLanguage(code: string): Promise<void> {
  localStorage.setItem(STORED, code);
  await i18next.changeLanguage(code);
}
