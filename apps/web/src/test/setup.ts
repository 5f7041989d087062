import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, vi } from 'vitest';

// The machine running the tests may be busy: a screen gets 5 s to show what is awaited.
configure({ asyncUtilTimeout: 5000 });

// Without language files every message is its key, so tests read the spec's keys.
await i18next.use(initReactI18next).init({ lng: 'en', resources: {}, interpolation: { escapeValue: false } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
