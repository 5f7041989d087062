import { createContext, useContext } from 'react';
import type { Language } from '../i18n/languages';

export const LanguagesContext = createContext<Language[]>([]);
export const useLanguages = (): Language[] => useContext(LanguagesContext);
