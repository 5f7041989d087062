import { AppBar, Box, Toolbar } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * The public pages' frame: the header, the page and the footer below it. The server's copy of the
 * landing page (app/landing-shell.tsx) is drawn in the same frame, so the app's first render puts
 * everything where it already was.
 */
export function PublicFrame({ header, children, footer }: { header: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      {header}
      <Box component="main" sx={{ flexGrow: 1 }}>
        {children}
      </Box>
      {footer}
    </Box>
  );
}

/** The public header's bar; it changes colour after 400 px of scroll (section 2). */
export function PublicHeaderBar({ scrolled, children }: { scrolled: boolean; children: ReactNode }) {
  return (
    <AppBar position="sticky" color={scrolled ? 'primary' : 'default'} elevation={scrolled ? 4 : 0} data-scrolled={scrolled}>
      <Toolbar sx={{ gap: 1, py: 1 }}>{children}</Toolbar>
    </AppBar>
  );
}
