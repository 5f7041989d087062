import { Box, CircularProgress } from '@mui/material';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { startI18n, type Language } from '../i18n/languages';
import { Providers } from './Providers';
import { router } from './router';

/** Starts i18next from the server's language files, then the app. */
export function App() {
  const [languages, setLanguages] = useState<Language[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    startI18n().then(setLanguages, () => { setFailed(true); });
  }, []);
  // Before any language file is loaded only English is known.
  if (failed) return <p role="alert">Language fetch failed</p>;
  if (!languages) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
        <CircularProgress aria-label="Loading" />
      </Box>
    );
  }
  return (
    <Providers languages={languages}>
      <RouterProvider router={router} />
    </Providers>
  );
}
