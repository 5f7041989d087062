import type { EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { StaticRouter } from 'react-router';
import { BookingFormPlaceholder } from '../features/booking/BookingFormPlaceholder';
import { LandingHero } from '../features/public/LandingHero';
import { emotionCache } from './emotion-cache';
import { DRAFT_MARKS, DraftContext } from './layout/draft-marks';
import { PublicFrame, PublicHeaderBar } from './layout/public-frame';
import { PublicHeaderItems, SOCIAL_LINKS, type SocialSetting } from './layout/public-header-items';
import { makeTheme } from './theme';

/** Every social link, each kept by the server only where its setting has a value. */
const SOCIAL = Object.fromEntries(SOCIAL_LINKS.map(({ setting }) => [setting, DRAFT_MARKS.link(setting)])) as Record<SocialSetting, string>;
/** The selector with the visitor's language in it, kept by the server only where more than one is offered. */
const LANGUAGES = { options: [{ code: DRAFT_MARKS.language('code'), name: DRAFT_MARKS.language('name') }], value: DRAFT_MARKS.language('code') };

/** The page's title: appName, as the app sets it (layout/use-document-title.ts). */
export const LANDING_TITLE = DRAFT_MARKS.setting('appName');

/**
 * The styles a render used, gathered as @emotion/server's extractCriticalToChunks gathers them
 * (the package is not a dependency here): every component's rules in one element, in the order
 * they were first used, and each global style (CssBaseline's) in its own, each named as the
 * browser's cache looks for it (data-emotion). Written inline, one element before each first use,
 * the browser's caches moved each of the 40 into the head one by one as the app's script started:
 * a tenth of that script's evaluation on a phone. `data-s` says they are in the head already, so
 * Emotion's default cache leaves them where they are (as it leaves the styles it wrote itself).
 */
function styleElements(cache: EmotionCache, html: string): string {
  const used = new Set(Array.from(html.matchAll(new RegExp(`${cache.key}-([a-zA-Z0-9_-]+)`, 'g')), (match) => match[1]));
  const ids: string[] = [];
  let rules = '';
  let globals = '';
  for (const [id, css] of Object.entries(cache.inserted)) {
    if (typeof css !== 'string') continue;
    if (cache.registered[`${cache.key}-${id}`] === undefined) globals += `<style data-emotion="${cache.key}-global ${id}" data-s="">${css}</style>`;
    else if (used.has(id)) {
      ids.push(id);
      rules += css;
    }
  }
  return `${globals}<style data-emotion="${cache.key} ${ids.join(' ')}" data-s="">${rules}</style>`;
}

/**
 * Issue 21 point 5: the landing page as the app first draws it (the header bar with appName, the
 * links, the social links and the language selector; the hero with the booking form's placeholder,
 * with the map's place for a signed-in user), rendered once at build time
 * (vite-plugins/landing-shell.ts) with its styles for the head, in each writing direction. Each text stands as
 * %%key%%, and each setting and language as the marks of layout/draft-marks.tsx, until the server
 * writes the visitor's in (apps/server/src/http/landing-page.ts), so a phone paints the whole first
 * view before the app's script has arrived; the app's first render replaces it where it stands.
 */
export function renderLandingShell(direction: 'ltr' | 'rtl', signedIn: boolean): { head: string; body: string } {
  const i18n = createInstance();
  // Resources are given, so init is done when it returns; every key is missing and becomes its mark.
  void i18n.init({ lng: 'shell', resources: { shell: { translation: {} } }, parseMissingKeyHandler: (key: string) => `%%${key}%%`, react: { useSuspense: false } });
  const cache = emotionCache(direction);
  // Emotion's server rendering keeps the rules in the cache instead of writing them inline.
  cache.compat = true;
  const body = renderToString(
    <DraftContext.Provider value={true}>
      <I18nextProvider i18n={i18n}>
        <CacheProvider value={cache}>
          <ThemeProvider theme={makeTheme(direction)}>
            <CssBaseline />
            {/* The header's links are the app's router links: plain addresses in the HTML. */}
            <StaticRouter location="/">
              <PublicFrame
                header={
                  <PublicHeaderBar scrolled={false}>
                    <PublicHeaderItems appName={DRAFT_MARKS.setting('appName')} signedIn={signedIn} social={SOCIAL} languages={LANGUAGES} />
                  </PublicHeaderBar>
                }
              >
                <LandingHero form={<BookingFormPlaceholder signedIn={signedIn} />} />
              </PublicFrame>
            </StaticRouter>
          </ThemeProvider>
        </CacheProvider>
      </I18nextProvider>
    </DraftContext.Provider>,
  );
  return { head: styleElements(cache, body), body };
}
