import { CacheProvider } from '@emotion/react';
import { Box, CssBaseline, ThemeProvider } from '@mui/material';
import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { BookingFormPlaceholder } from '../features/booking/BookingFormPlaceholder';
import { LandingHero } from '../features/public/LandingHero';
import { emotionCache } from './emotion-cache';
import { PublicFrame, PublicHeaderBar } from './layout/public-frame';
import { makeTheme } from './theme';

/** The header's tallest item, the language selector (a small outlined field), sets the bar's height. */
const HEADER_ITEM_HEIGHT_PX = 40;

/**
 * Issue 21 point 5: the landing page as the app first draws it (the header bar, the hero with the
 * booking form's placeholder, with the map's place for a signed-in user), rendered once at build
 * time (vite-plugins/landing-shell.ts) with its styles, in each writing direction. Each text stands as %%key%% until the server writes the
 * visitor's language into it (apps/server/src/http/landing-page.ts), so a phone paints the slogan
 * before the app's script has arrived; the app's first render replaces it where it stands.
 */
export function renderLandingShell(direction: 'ltr' | 'rtl', signedIn: boolean): string {
  const i18n = createInstance();
  // Resources are given, so init is done when it returns; every key is missing and becomes its mark.
  void i18n.init({ lng: 'shell', resources: { shell: { translation: {} } }, parseMissingKeyHandler: (key: string) => `%%${key}%%`, react: { useSuspense: false } });
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <CacheProvider value={emotionCache(direction)}>
        <ThemeProvider theme={makeTheme(direction)}>
          <CssBaseline />
          <PublicFrame
            header={
              <PublicHeaderBar scrolled={false}>
                <Box sx={{ height: HEADER_ITEM_HEIGHT_PX }} />
              </PublicHeaderBar>
            }
          >
            <LandingHero form={<BookingFormPlaceholder signedIn={signedIn} />} />
          </PublicFrame>
        </ThemeProvider>
      </CacheProvider>
    </I18nextProvider>,
  );
}
