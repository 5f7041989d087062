import { CacheProvider } from '@emotion/react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { onLiveSessionEnded } from '../api/live';
import { NoticeProvider } from '../components/NoticeProvider';
import { ME } from '../api/session';
import type { Language } from '../i18n/languages';
import { emotionCache } from './emotion-cache';
import { LanguagesContext } from './languages-context';
import { queryClient } from './query-client';
import { makeTheme } from './theme';

const caches = {
  ltr: emotionCache('ltr'),
  rtl: emotionCache('rtl'),
};

/** Query cache, theme, the page's direction (which follows the chosen language) and the notices of issue 17. */
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
  // The server ended this session (signed out elsewhere, password reset): the app is signed out
  // too, so the route guards send the user to sign in instead of showing stale data.
  useEffect(
    () =>
      onLiveSessionEnded(() => {
        // ME stays the same query, so the screens watching it see the sign-out; the rest is dropped.
        queryClient.setQueryData(ME, null);
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== ME[0] });
      }),
    [],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <LanguagesContext.Provider value={languages}>
        <CacheProvider value={caches[direction]}>
          <ThemeProvider theme={theme}>
            <CssBaseline />
            <NoticeProvider>{children}</NoticeProvider>
          </ThemeProvider>
        </CacheProvider>
      </LanguagesContext.Provider>
    </QueryClientProvider>
  );
}
