import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compression } from 'vite-plugin-compression2';
import { landingBudget } from './vite-plugins/landing-budget.ts';
import { landingShell } from './vite-plugins/landing-shell.ts';

const api = process.env.RIDEWAY_API ?? 'http://127.0.0.1:3000';

// In development the Vite server proxies the API, the WebSocket and the section 7 paths.
export default defineConfig({
  plugins: [
    react(),
    landingBudget(),
    landingShell(),
    // Installable: a manifest and a Workbox service worker that keeps the app shell for offline
    // starts. The worker is our own src/sw.ts (injectManifest) so it can take Web Push (issue 19);
    // the build injects the precache list into it.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      includeAssets: ['icons/icon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'Rideway',
        short_name: 'Rideway',
        description: 'Book a ride or send a parcel, and follow it live.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1b5e20',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // The navigation fallback (client routes open the shell) is registered in src/sw.ts.
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // The server's drafts of the landing page, filled in per visitor (vite-plugins/landing-shell.ts).
        globIgnores: ['landing-*.html'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
    // Brotli and gzip copies of the text assets, made once here; the server sends the one the
    // browser accepts (@fastify/static preCompressed, http/web-app.ts). Uncompressed, the landing
    // page's scripts took seconds on a phone's network (issue 21 point 5).
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  server: {
    proxy: {
      '/api': { target: api, ws: true },
      '^/(get_|googleapis-|validate_referrer|check_user_exists|user_signup|send_notification)': api,
    },
  },
  // The landing budget below is the limit that matters; lazy pages may be larger.
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      output: {
        // Issue 21 point 5: everything the landing page imports statically is one chunk. Split by
        // what the lazy pages share, it was 45 small files, and a phone's browser fetches six at a
        // time from an HTTP/1.1 origin: seven round trips before the first paint.
        // The interface library's modules the lazy pages share are one chunk too.
        codeSplitting: {
          groups: [
            { name: 'landing', tags: ['$initial'], priority: 3 },
            { name: 'mui', test: /[\\/]node_modules[\\/](@mui[\\/](material|system|utils|icons-material)|@emotion|react-transition-group)[\\/]/, priority: 2 },
          ],
        },
      },
    },
  },
});
