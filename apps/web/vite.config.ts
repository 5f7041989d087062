import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { landingBudget } from './vite-plugins/landing-budget.ts';

const api = process.env.RIDEWAY_API ?? 'http://127.0.0.1:3000';

// In development the Vite server proxies the API, the WebSocket and the section 7 paths.
export default defineConfig({
  plugins: [react(), landingBudget()],
  server: {
    proxy: {
      '/api': { target: api, ws: true },
      '^/(get_|googleapis-|validate_referrer|check_user_exists|user_signup|send_notification)': api,
    },
  },
  // The landing budget below is the limit that matters; lazy pages may be larger.
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1024 },
});
