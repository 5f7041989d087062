import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';

/**
 * The style cache for a writing direction: right-to-left languages get their styles mirrored.
 * Created in the browser, it also takes over the styles the server's copy of the landing page
 * carried (app/landing-shell.tsx), so they are not written twice.
 */
export function emotionCache(direction: 'ltr' | 'rtl'): EmotionCache {
  return direction === 'rtl' ? createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }) : createCache({ key: 'mui' });
}
