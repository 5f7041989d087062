import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import type { Language } from '../i18n/languages';
import { LanguagesContext } from './languages-context';
import { makeTheme } from './theme';

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
const caches = {
  ltr: createCache({ key: 'mui' }),
  rtl: createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
};

/** Query cache, theme and the page's direction, which follows the chosen language. */
export function Providers({ languages, children }: { languages: Language[]; children: ReactNode }) {
  const { i18n } = useTranslation();
  const [code, setCode] = useState(i18n.language);
  useEffect(() => {
    const changed = (next: string) => { setCode(next); };
    i18n.on('languageChanged', changed);
    return () => { i18n.off('languageChanged', changed); };
  }, [i18n]);
  const direction = languages.find((language) => language.code === code)?.dir ?? 'ltr';
  useEffect(() => {
    document.documentElement.dir = direction;
    document.documentElement.lang = code;
  }, [direction, code]);
  const theme = useMemo(() => makeTheme(direction), [direction]);
  return (
    <QueryClientProvider client={queryClient}>
      <LanguagesContext.Provider value={languages}>
        <CacheProvider value={caches[direction]}>
          <ThemeProvider theme={theme}>
            <CssBaseline />
            {children}
          </ThemeProvider>
        </CacheProvider>
      </LanguagesContext.Provider>
    </QueryClientProvider>
  );
}
