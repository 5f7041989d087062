import { Box, CircularProgress } from '@mui/material';
import { RouterProvider } from 'react-router';
import type { Language } from '../i18n/languages';
import { Providers } from './Providers';
import type { AppRouter } from './router';

/** The app, once i18next has started from the server's language files (main.tsx), on its router. */
export function App({ languages, router }: { languages: Language[]; router: AppRouter }) {
  return (
    <Providers languages={languages}>
      <RouterProvider router={router} />
    </Providers>
  );
}

/** Before any language file is loaded only English is known, and nothing is themed yet. */
export function Starting() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}
